#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "kopt/profile.hpp"

namespace kopt {
namespace ncu_command_test {

using Argv = std::vector<std::string>;

NcuCommand softmax_command() {
  NcuCommand command;
  command.ncu_path = "/opt/nvidia/nsight-compute/2025.3.1/ncu";
  command.kernel_name = "softmax_rows";
  command.launch_skip = 2;
  command.metrics = {"gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                     "dram__bytes_read.sum"};
  command.log_file = "/tmp/kopt/ncu.log";
  command.target_argv = {"/tmp/kopt/harness", "--case", "0"};
  return command;
}

// The value after `flag` in `argv`, or "" when the flag is absent or last.
std::string value_of(Argv const& argv, std::string const& flag) {
  auto const found = std::find(argv.begin(), argv.end(), flag);
  if (found == argv.end() || found + 1 == argv.end()) return {};
  return *(found + 1);
}

TEST(NcuArguments, FullCommandLine) {
  auto const argv = ncu_arguments(softmax_command());
  ASSERT_TRUE(argv.ok()) << argv.error().message;
  Argv const expected{
      "/opt/nvidia/nsight-compute/2025.3.1/ncu",
      "--clock-control",
      "none",
      "--kernel-name-base",
      "function",
      "--print-kernel-base",
      "function",
      "--kernel-name",
      "regex:^softmax_rows$",
      "--launch-skip",
      "2",
      "--launch-count",
      "1",
      "--metrics",
      "gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum",
      "--csv",
      "--page",
      "raw",
      "--print-units",
      "base",
      "--log-file",
      "/tmp/kopt/ncu.log",
      "/tmp/kopt/harness",
      "--case",
      "0"};
  EXPECT_EQ(*argv, expected);
}

TEST(NcuArguments, ClockControlIsAlwaysNoneAndNeverBase) {
  for (auto const base :
       {NcuKernelNameBase::function, NcuKernelNameBase::demangled, NcuKernelNameBase::mangled}) {
    NcuCommand command = softmax_command();
    command.kernel_name_base = base;
    command.log_file.clear();
    auto const argv = ncu_arguments(command);
    ASSERT_TRUE(argv.ok()) << argv.error().message;
    EXPECT_EQ(value_of(*argv, "--clock-control"), "none");
    EXPECT_EQ(std::count(argv->begin(), argv->end(), "--clock-control"), 1);
    EXPECT_EQ(std::count(argv->begin(), argv->end(), "base"), 1);  // only as --print-units base
    EXPECT_EQ(std::count(argv->begin(), argv->end(), "--nvtx"), 0);
    EXPECT_EQ(value_of(*argv, "--print-units"), "base");
  }
}

TEST(NcuArguments, KernelNameBaseFlag) {
  NcuCommand command = softmax_command();
  command.kernel_name_base = NcuKernelNameBase::mangled;
  command.kernel_name = "_Z12softmax_rowsPKfPfi";
  auto const argv = ncu_arguments(command);
  ASSERT_TRUE(argv.ok());
  EXPECT_EQ(value_of(*argv, "--kernel-name-base"), "mangled");
  EXPECT_EQ(value_of(*argv, "--print-kernel-base"), "mangled");
  EXPECT_EQ(value_of(*argv, "--kernel-name"), "regex:^_Z12softmax_rowsPKfPfi$");
}

TEST(NcuArguments, MetricListIsJoinedWithoutDuplicates) {
  NcuCommand command = softmax_command();
  command.metrics = {"a.sum", "b.sum", "a.sum", "regex:^c__.*$", "b.sum"};
  auto const argv = ncu_arguments(command);
  ASSERT_TRUE(argv.ok());
  EXPECT_EQ(value_of(*argv, "--metrics"), "a.sum,b.sum,regex:^c__.*$");
  command.metrics = {"only.one"};
  EXPECT_EQ(value_of(*ncu_arguments(command), "--metrics"), "only.one");
}

TEST(NcuArguments, NvtxRangeWithoutKernelNameAndSeveralLaunches) {
  NcuCommand command = softmax_command();
  command.kernel_name.clear();
  command.nvtx_include = "kopt_candidate/";
  command.launch_count = 4;
  auto const argv = ncu_arguments(command);
  ASSERT_TRUE(argv.ok()) << argv.error().message;
  EXPECT_EQ(std::count(argv->begin(), argv->end(), "--kernel-name"), 0);
  auto const nvtx = std::find(argv->begin(), argv->end(), "--nvtx");
  ASSERT_NE(nvtx, argv->end());
  EXPECT_EQ(*(nvtx + 1), "--nvtx-include");
  EXPECT_EQ(*(nvtx + 2), "kopt_candidate/");
  EXPECT_EQ(value_of(*argv, "--launch-count"), "4");
  EXPECT_EQ(value_of(*argv, "--clock-control"), "none");

  command.kernel_name = "softmax_rows";  // both filters together
  auto const both = ncu_arguments(command);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(value_of(*both, "--kernel-name"), "regex:^softmax_rows$");
  EXPECT_EQ(value_of(*both, "--nvtx-include"), "kopt_candidate/");
}

TEST(NcuArguments, NoLogFileLeavesTheFlagOut) {
  NcuCommand command = softmax_command();
  command.log_file.clear();
  auto const argv = ncu_arguments(command);
  ASSERT_TRUE(argv.ok());
  EXPECT_EQ(std::count(argv->begin(), argv->end(), "--log-file"), 0);
  EXPECT_EQ(argv->back(), "0");
  EXPECT_EQ(*(argv->end() - 3), "/tmp/kopt/harness");
}

TEST(NcuArguments, KernelNamesWithRegexMetacharactersAreEscaped) {
  NcuCommand command = softmax_command();
  command.kernel_name = "gemm<float, 4>::run(a.b)[x]{y}*+?|^$\\";
  auto const argv = ncu_arguments(command);
  ASSERT_TRUE(argv.ok());
  std::string const pattern = value_of(*argv, "--kernel-name");
  EXPECT_EQ(pattern, "regex:^gemm<float, 4>::run\\(a\\.b\\)\\[x\\]\\{y\\}\\*\\+\\?\\|\\^\\$\\\\$");
  // The escaped pattern matches exactly the name and nothing longer or shorter.
  std::regex const re(pattern.substr(6));
  EXPECT_TRUE(std::regex_match(command.kernel_name, re));
  EXPECT_FALSE(std::regex_match(command.kernel_name + "x", re));
  EXPECT_FALSE(std::regex_match("gemm<float, 4>::run(aXb)[x]{y}*+?|^$\\", re));  // '.' is literal
}

TEST(EscapeRegex, PlainNamesAreUnchanged) {
  EXPECT_EQ(escape_regex("softmax_rows_kernel_v"), "softmax_rows_kernel_v");
  EXPECT_EQ(escape_regex("a.b"), "a\\.b");
  EXPECT_EQ(escape_regex(""), "");
}

TEST(NcuArguments, InvalidCommandsNameTheField) {
  auto expect_error = [](NcuCommand const& command, std::string const& field) {
    auto const argv = ncu_arguments(command);
    ASSERT_FALSE(argv.ok()) << field;
    EXPECT_EQ(argv.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(argv.error().message.find(field), std::string::npos) << argv.error().message;
  };
  NcuCommand command = softmax_command();
  command.kernel_name.clear();
  expect_error(command, "kernel_name and nvtx_include are both empty");
  command = softmax_command();
  command.launch_count = 0;
  expect_error(command, "launch_count is 0");
  command = softmax_command();
  command.launch_skip = -1;
  expect_error(command, "launch_skip is -1");
  command = softmax_command();
  command.metrics.clear();
  expect_error(command, "metrics is empty");
  command = softmax_command();
  command.metrics = {"a.sum", "b.sum,c.sum"};
  expect_error(command, "'b.sum,c.sum' contains a comma");
  command.metrics = {"a.sum", "b sum"};
  expect_error(command, "'b sum' contains whitespace");
  command.metrics = {""};
  expect_error(command, "is empty");
  command = softmax_command();
  command.target_argv = {""};
  expect_error(command, "empty program name");
  command = softmax_command();
  command.target_argv.clear();  // a wrapper: the caller appends the program
  auto wrapper = ncu_arguments(command);
  ASSERT_TRUE(wrapper) << wrapper.error().message;
  EXPECT_EQ(std::find(wrapper->begin(), wrapper->end(), "/tmp/kopt/harness"), wrapper->end());
  EXPECT_EQ(wrapper->front(), command.ncu_path);
  command = softmax_command();
  command.ncu_path.clear();
  expect_error(command, "ncu_path");
}

}  // namespace ncu_command_test
}  // namespace kopt
