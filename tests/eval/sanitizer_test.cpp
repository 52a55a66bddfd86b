// sanitizer_error_count: reading compute-sanitizer's summary lines.
#include "eval/sanitizer.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace kopt {
namespace sanitizer_test {

TEST(SanitizerErrorCount, ReadsTheMemcheckErrorSummary) {
  std::string const log =
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at vector_add_kernel(float *, const float *, const float *, int)+0x70\n"
      "========= ERROR SUMMARY: 3 errors\n";
  EXPECT_EQ(sanitizer_error_count(log), 3);
}

TEST(SanitizerErrorCount, ReadsASingularAndAZeroSummary) {
  EXPECT_EQ(sanitizer_error_count("========= ERROR SUMMARY: 1 error\n"), 1);
  EXPECT_EQ(sanitizer_error_count("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"), 0);
}

TEST(SanitizerErrorCount, ReadsTheRacecheckSummary) {
  std::string const log =
      "========= COMPUTE-SANITIZER\n"
      "========= Error: Race reported between Write access at reduce(float *)+0x1a0\n"
      "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n";
  EXPECT_EQ(sanitizer_error_count(log), 2);
}

TEST(SanitizerErrorCount, RacecheckSummaryWinsOverTheErrorSummary) {
  std::string const log =
      "========= RACECHECK SUMMARY: 4 hazards displayed (4 errors, 0 warnings)\n"
      "========= ERROR SUMMARY: 0 errors\n";
  EXPECT_EQ(sanitizer_error_count(log), 4);
}

// Outside text (issue #23): 1 MiB runs inside the summary lines are read in linear time (std::regex recursed
// once per character and overflowed the stack), and a count too large for an int is still errors.
TEST(SanitizerErrorCount, MegabyteSummaryLinesAreReadNotACrash) {
  std::size_t const mib = std::size_t{1} << 20;
  EXPECT_EQ(sanitizer_error_count("========= ERROR SUMMARY:" + std::string(mib, ' ') + "3 errors\n"), 3);
  EXPECT_EQ(sanitizer_error_count("========= RACECHECK SUMMARY: 2 hazards" + std::string(mib, 'x') +
                                  " (2 errors, 0 warnings)\n"),
            2);
  EXPECT_EQ(sanitizer_error_count("========= ERROR SUMMARY: " + std::string(mib, '9') + " errors\n"),
            std::numeric_limits<int>::max());
  EXPECT_EQ(sanitizer_error_count("========= ERROR SUMMARY: " + std::string(mib, '0') + "1 error\n"), 1);
}

TEST(SanitizerErrorCount, NoSummaryIsNullopt) {
  EXPECT_EQ(sanitizer_error_count(""), std::nullopt);
  EXPECT_EQ(
      sanitizer_error_count("========= COMPUTE-SANITIZER\n========= Error: Target application terminated "
                            "before first instrumented API call\n"),
      std::nullopt);
  EXPECT_EQ(sanitizer_error_count("ERROR SUMMARY: some errors\n"), std::nullopt);
}

}  // namespace sanitizer_test
}  // namespace kopt
