#include "task/toml_precheck.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kopt::task_detail {
namespace {

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

}  // namespace
}  // namespace kopt::task_detail
