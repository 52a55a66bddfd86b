#include "cli/exit_code.hpp"

#include <gtest/gtest.h>

namespace kopt::cli {
namespace exit_code_test {

TEST(ExitCode, ErrorCodesMapToDocumentedExitCodes) {
  EXPECT_EQ(exit_code_for(ErrorCode::invalid_argument, ErrorOrigin::input), ExitCode::usage);
  EXPECT_EQ(exit_code_for(ErrorCode::invalid_spec, ErrorOrigin::input), ExitCode::usage);
  EXPECT_EQ(exit_code_for(ErrorCode::invalid_spec, ErrorOrigin::environment), ExitCode::usage);
  EXPECT_EQ(exit_code_for(ErrorCode::no_gpu, ErrorOrigin::input), ExitCode::environment);
  EXPECT_EQ(exit_code_for(ErrorCode::toolchain_error, ErrorOrigin::environment), ExitCode::environment);
  EXPECT_EQ(exit_code_for(ErrorCode::worker_error, ErrorOrigin::environment), ExitCode::environment);
  EXPECT_EQ(exit_code_for(ErrorCode::internal_error, ErrorOrigin::input), ExitCode::internal);
  EXPECT_EQ(to_int(ExitCode::usage), 2);
  EXPECT_EQ(to_int(ExitCode::environment), 3);
  EXPECT_EQ(to_int(ExitCode::internal), 4);
}

TEST(ExitCode, MissingFilesDependOnWhereTheyWereNeeded) {
  // A missing task file is the user's input; a missing nvcc or worker binary is the machine's setup.
  EXPECT_EQ(exit_code_for(ErrorCode::not_found, ErrorOrigin::input), ExitCode::usage);
  EXPECT_EQ(exit_code_for(ErrorCode::not_found, ErrorOrigin::environment), ExitCode::environment);
  EXPECT_EQ(exit_code_for(ErrorCode::io_error, ErrorOrigin::input), ExitCode::usage);
  EXPECT_EQ(exit_code_for(ErrorCode::io_error, ErrorOrigin::environment), ExitCode::environment);
}

CandidateReport candidate(CandidateStatus status) {
  CandidateReport c;
  c.status = status;
  return c;
}

TEST(ExitCode, ReportIsSuccessOnlyWhenEveryCandidateIsOk) {
  EvalReport report;
  report.candidates = {candidate(CandidateStatus::ok), candidate(CandidateStatus::ok)};
  EXPECT_EQ(exit_code_for(report), ExitCode::success);
  report.candidates.push_back(candidate(CandidateStatus::implausibly_fast));
  EXPECT_EQ(exit_code_for(report), ExitCode::rejected);
  report.candidates = {candidate(CandidateStatus::compile_error)};
  EXPECT_EQ(to_int(exit_code_for(report)), 1);
  report.candidates.clear();
  EXPECT_EQ(exit_code_for(report), ExitCode::rejected);  // nothing was shown to be ok
}

TEST(ExitCode, HelpTextListsEveryCode) {
  std::string help(exit_code_help());
  for (char const* line :
       {"  0  success", "  1  kopt ran", "  2  usage error", "  3  environment", "  4  internal"}) {
    EXPECT_NE(help.find(line), std::string::npos) << line;
  }
}

}  // namespace exit_code_test
}  // namespace kopt::cli
