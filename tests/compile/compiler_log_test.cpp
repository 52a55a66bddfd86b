// trim_compiler_log and the ptxas resource parser.
#include <gtest/gtest.h>

#include "compile/ptxas_resources.hpp"
#include "kopt/compile.hpp"

namespace kopt {
namespace compiler_log_test {

TEST(TrimCompilerLog, KeepsErrorsWarningsLocationsAndContext) {
  std::string const log =
      "ptxas info    : 0 bytes gmem\n"
      "cand.cu(5): error: expected a \";\"\n"
      "    int x = 3\n"
      "             ^\n"
      "\n"
      "some chatter\n"
      "cand.cu(9): warning #177-D: variable \"y\" was declared but never referenced\n"
      "    int y;\n"
      "host.cpp:12:3: note: in expansion\n"
      "1 error detected in the compilation of \"cand.cu\".\n";
  std::string const trimmed = trim_compiler_log(log);
  EXPECT_EQ(trimmed,
            "cand.cu(5): error: expected a \";\"\n"
            "    int x = 3\n"
            "             ^\n"
            "cand.cu(9): warning #177-D: variable \"y\" was declared but never referenced\n"
            "host.cpp:12:3: note: in expansion\n"
            "1 error detected in the compilation of \"cand.cu\".\n");
}

TEST(TrimCompilerLog, CapsWithACount) {
  std::string log;
  for (int i = 1; i <= 50; ++i) log += "cand.cu(" + std::to_string(i) + "): warning: w\n";
  std::string const trimmed = trim_compiler_log(log, 10);
  EXPECT_NE(trimmed.find("cand.cu(10): warning"), std::string::npos);
  EXPECT_EQ(trimmed.find("cand.cu(11): warning"), std::string::npos);
  EXPECT_NE(trimmed.find("... 40 more lines"), std::string::npos);
  EXPECT_EQ(trim_compiler_log(""), "");
  EXPECT_EQ(trim_compiler_log("all good\nnothing to see\n"), "");
}

// Outside text (issue #23): a compiler log line with a 1 MiB token is read in linear time. std::regex
// recursed once per character of a repetition and overflowed the stack; RE2 does not recurse.
TEST(TrimCompilerLog, AMegabyteTokenIsReadNotACrash) {
  std::string const token(std::size_t{1} << 20, 'x');
  std::string const log = token + "\n" + token + "(12): note: here\n" + token + ".cu:7: note: there\n";
  EXPECT_EQ(trim_compiler_log(log), token + "(12): note: here\n" + token + ".cu:7: note: there\n");
}

TEST(PtxasResources, ParsesEntriesForTheRequestedArch) {
  std::string const log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'\n"
      "ptxas info    : Function properties for _Z1kPf\n"
      "    16 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Used 99 registers, used 0 barriers, 360 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z1kPf\n"
      "ptxas         .     24 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 32 registers, used 1 barriers, 4096 bytes smem, 360 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
      "ptxas info    : Function properties for other\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, used 0 barriers\n";
  auto const entries = detail::parse_ptxas_resources(log, "sm_90");
  ASSERT_EQ(entries.size(), 2u);
  ResourceUsage const& k = entries.at("_Z1kPf");
  EXPECT_EQ(k.registers, 32);
  EXPECT_EQ(k.static_shared_bytes, 4096);
  EXPECT_EQ(k.stack_bytes, 24);
  EXPECT_EQ(k.spill_stores_bytes, 4);
  EXPECT_EQ(k.spill_loads_bytes, 12);
  ResourceUsage const& other = entries.at("other");
  EXPECT_EQ(other.registers, 8);
  EXPECT_EQ(other.static_shared_bytes, 0);
  EXPECT_EQ(other.stack_bytes, 0);

  ResourceUsage const worst = detail::max_resources(entries);
  EXPECT_EQ(worst.registers, 32);
  EXPECT_EQ(worst.static_shared_bytes, 4096);
  EXPECT_EQ(detail::max_resources({}).registers, -1);
  EXPECT_TRUE(detail::parse_ptxas_resources("no ptxas output here", "sm_90").empty());
}

// 1 MiB names and numbers in ptxas's output: the names are read whole, and a number too large for an int
// leaves its field unknown.
TEST(PtxasResources, MegabyteNamesAndNumbersAreReadNotACrash) {
  std::string const name(std::size_t{1} << 20, 'k');
  std::string const digits(std::size_t{1} << 20, '9');
  std::string const log = "ptxas info    : Compiling entry function '" + name + "' for 'sm_90'\n" +
                          "ptxas info    : Function properties for " + name + "\n" + "    " + digits +
                          " bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n" +
                          "ptxas info    : Used " + digits + " registers, used 0 barriers, 4096 bytes smem\n";
  auto const entries = detail::parse_ptxas_resources(log, "sm_90");
  ASSERT_EQ(entries.size(), 1u);
  ASSERT_EQ(entries.count(name), 1u);
  ResourceUsage const& k = entries.at(name);
  EXPECT_EQ(k.registers, -1);
  EXPECT_EQ(k.stack_bytes, -1);
  EXPECT_EQ(k.spill_stores_bytes, 8);
  EXPECT_EQ(k.spill_loads_bytes, 4);
  EXPECT_EQ(k.static_shared_bytes, 4096);
}

TEST(CandidateMode, Names) {
  EXPECT_EQ(to_string(CandidateMode::kernel), "kernel");
  EXPECT_EQ(to_string(CandidateMode::launcher), "launcher");
}

}  // namespace compiler_log_test
}  // namespace kopt
