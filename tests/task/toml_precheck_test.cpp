#include "task/toml_precheck.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kopt::task_detail {
namespace toml_precheck_test {

TEST(TomlPrecheck, AcceptsValidToml) {
  std::string const text =
      "# [comment]\n"
      "name = \"x [\" # [\n"
      "s = '''\n[not a header\n'''\n"
      "m = \"\"\"\n[] \\\"\"\" still inside\n\"\"\"\n"
      "a = [\n  [],\n  [ { k = 1 } ],\n]\n"
      "[ table . \"quoted\" ]\n"
      "[[ 'array' ]]\n"
      "x = 1\r\n"
      "t = \"tab\there\"\n";
  auto problem = precheck_toml(text);
  EXPECT_FALSE(problem.has_value()) << problem->what << " at " << problem->line << ":" << problem->column;
}

TEST(TomlPrecheck, RejectsHeadersWithoutAName) {
  for (std::string header : {"[[", "[[\n", "[]", "[[[x]]]", "[ =", "[[]]"}) {
    auto problem = precheck_toml("a = 1\n  " + header);
    ASSERT_TRUE(problem.has_value()) << header;
    EXPECT_EQ(problem->line, 2u) << header;
    EXPECT_EQ(problem->column, 3u) << header;
    EXPECT_NE(problem->what.find("table header without a name"), std::string::npos);
  }
}

TEST(TomlPrecheck, RejectsControlCharacters) {
  auto problem = precheck_toml("a = 1\nb = \"\x01\"\n");
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->line, 2u);
  EXPECT_EQ(problem->column, 6u);
  EXPECT_NE(problem->what.find("U+0001"), std::string::npos);
  EXPECT_TRUE(precheck_toml(std::string("a = \"\x7f\"")).has_value());
  EXPECT_TRUE(precheck_toml("a = 1\rb = 2").has_value());  // a lone carriage return
}

// toml++ 3.3 asks its whitespace table about a non-ASCII character where it expects whitespace, and some
// code points reach __builtin_unreachable (upstream marzer/tomlplusplus#295, #190; found by
// fuzz/prompt_template.cpp: the three bytes of U+FEFB, kept in fuzz/regressions/prompt_template/).
TEST(TomlPrecheck, RejectsNonAsciiOutsideStringsAndComments) {
  for (std::string text : {"\xEF\xBB\xBB", "a = 1\n\xC2\xA1", "a = 1 \xE3\x80\x81", "\xC3\xA9 = 1"}) {
    auto problem = precheck_toml(text);
    ASSERT_TRUE(problem.has_value()) << text;
    EXPECT_NE(problem->what.find("non-ASCII character outside a string or comment"), std::string::npos);
  }
  auto problem = precheck_toml("a = 1\nb = 2 \xC2\xA1");
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->line, 2u);
  EXPECT_EQ(problem->column, 7u);
  // Inside strings and comments every character stays valid.
  EXPECT_FALSE(
      precheck_toml("d = \"caf\xC3\xA9\" # \xC2\xA1\nl = '\xEF\xBB\xBB'\nm = \"\"\"\n\xC2\xA7\"\"\"\n")
          .has_value());
}

TEST(TomlPrecheck, RejectsNonAsciiRightAfterALineEndingBackslash) {
  auto problem = precheck_toml("s = \"\"\"\\\n  \xC2\xA7\"\"\"\n");
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->line, 2u);
  EXPECT_EQ(problem->column, 3u);
  EXPECT_NE(problem->what.find("line-ending backslash"), std::string::npos);
  EXPECT_FALSE(precheck_toml("s = \"\"\"\\\n  x\xC2\xA7\"\"\"\n").has_value());
  EXPECT_FALSE(precheck_toml("s = \"\\\\\xC2\xA7\"\n").has_value());  // an escaped backslash, then text
}

}  // namespace toml_precheck_test
}  // namespace kopt::task_detail
