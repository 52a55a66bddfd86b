#include "cli/options.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace kopt::cli {
namespace options_test {

TEST(Options, SeedParsesFullUnsignedRange) {
  auto empty = parse_seed("");
  ASSERT_TRUE(empty.ok());
  EXPECT_FALSE(empty->has_value());
  auto max = parse_seed("18446744073709551615");
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(**max, 18446744073709551615ULL);
  for (char const* bad : {"-1", "18446744073709551616", "12x", "+5", " 5", "0x10"}) {
    auto seed = parse_seed(bad);
    ASSERT_FALSE(seed.ok()) << bad;
    EXPECT_EQ(seed.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(seed.error().message.find("--seed"), std::string::npos);
  }
}

TEST(Options, SizeListSplitsAndRejectsMistakes) {
  auto sizes = parse_size_list("small, large,odd");
  ASSERT_TRUE(sizes.ok()) << sizes.error().message;
  EXPECT_EQ(*sizes, (std::vector<std::string>{"small", "large", "odd"}));
  EXPECT_FALSE(parse_size_list("a,,b").ok());
  EXPECT_FALSE(parse_size_list("a,").ok());
  EXPECT_FALSE(parse_size_list(" ").ok());
  auto twice = parse_size_list("a,b,a");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("'a' is listed twice"), std::string::npos);
  EXPECT_FALSE(parse_size_list("a b").ok());
}

TEST(Options, UnknownSizeNamesListTheTasksSizes) {
  EXPECT_TRUE(check_size_names({"odd"}, {"small", "odd"}, "softmax").ok());
  auto status = check_size_names({"huge"}, {"small", "odd"}, "softmax");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "--sizes: task 'softmax' has no size case 'huge'; it has: small, odd");
}

TEST(Options, ArchFlagAndGencodeShapes) {
  EXPECT_TRUE(check_arch("sm_90").ok());
  EXPECT_TRUE(check_arch("sm_90a").ok());
  EXPECT_TRUE(check_arch("sm_100").ok());
  EXPECT_FALSE(check_arch("90").ok());
  EXPECT_FALSE(check_arch("compute_90").ok());
  EXPECT_FALSE(check_arch("sm_9").ok());
  EXPECT_TRUE(check_flag("-O3").ok());
  EXPECT_TRUE(check_flag("--use_fast_math").ok());
  EXPECT_FALSE(check_flag("O3").ok());
  EXPECT_FALSE(check_flag("").ok());
  EXPECT_TRUE(check_gencode("arch=compute_90,code=sm_90").ok());
  EXPECT_TRUE(check_gencode("arch=compute_90a,code=[sm_90a,compute_90a]").ok());
  EXPECT_FALSE(check_gencode("sm_90").ok());
  EXPECT_TRUE(check_gencode("arch=compute_100f,code=sm_100f").ok());
  EXPECT_FALSE(check_gencode("arch=compute_9,code=sm_90").ok());
  EXPECT_FALSE(check_gencode("arch=compute_90,code=[sm_90").ok());
  EXPECT_FALSE(check_gencode("arch=compute_90,code=").ok());
  EXPECT_FALSE(check_gencode("arch=compute_90,code=SM_90").ok());
}

// Option values of tens of kilobytes (found by fuzzing: `--gencode=` with one made the regular
// expression recurse until the stack overflowed, SIGSEGV) are read in linear time, and the message
// quotes only their start.
TEST(Options, VeryLongValuesAreRefusedWithAShortMessage) {
  std::string const long_code = "arch=compute_90,code=" + std::string(100000, 's') + "!";
  auto const gencode = check_gencode(long_code);
  ASSERT_FALSE(gencode.ok());
  EXPECT_LT(gencode.error().message.size(), 300u) << gencode.error().message.substr(0, 300);
  EXPECT_NE(gencode.error().message.find("(100022 characters)"), std::string::npos);
  EXPECT_TRUE(check_gencode("arch=compute_90,code=" + std::string(100000, 's')).ok());
  auto const arch = check_arch("sm_" + std::string(100000, '9'));
  ASSERT_FALSE(arch.ok());
  EXPECT_LT(arch.error().message.size(), 300u);
}

TEST(Options, EvalOptionsCarryEveryValue) {
  EvalArgs args;
  args.tier = "screen";
  args.mode = "launcher";
  args.seed = "42";
  args.sizes = "small,odd";
  args.sanitize = true;
  args.no_baseline = true;
  args.arch = "sm_90a";
  args.gencode = {"arch=compute_90,code=sm_90"};
  args.flags = {"-DTILE=64", "--use_fast_math"};
  args.device = 1;
  args.timeout_floor_ms = 500.0;
  args.timeout_ceiling_ms = 9000.0;
  auto options = eval_options_from(args, "/opt/kopt/kopt-worker");
  ASSERT_TRUE(options.ok()) << options.error().message;
  EXPECT_EQ(options->tier, TimingTier::screen);
  ASSERT_TRUE(options->mode.has_value());
  EXPECT_EQ(*options->mode, CandidateMode::launcher);
  EXPECT_EQ(options->seed, std::optional<std::uint64_t>(42));
  EXPECT_EQ(options->sizes, (std::vector<std::string>{"small", "odd"}));
  EXPECT_TRUE(options->sanitize);
  EXPECT_FALSE(options->time_baseline);
  EXPECT_EQ(options->compile.arch, "sm_90a");
  EXPECT_EQ(options->compile.gencode, args.gencode);
  EXPECT_EQ(options->compile.extra_flags, args.flags);
  EXPECT_EQ(options->device, 1);
  EXPECT_DOUBLE_EQ(options->timeout_floor_ms, 500.0);
  EXPECT_DOUBLE_EQ(options->timeout_ceiling_ms, 9000.0);
  EXPECT_EQ(options->worker_path, "/opt/kopt/kopt-worker");
}

TEST(Options, EvalDefaultsLeaveEvaluatorDefaults) {
  auto options = eval_options_from(EvalArgs{}, {});
  ASSERT_TRUE(options.ok()) << options.error().message;
  EvalOptions defaults;
  EXPECT_EQ(options->tier, TimingTier::confirm);
  EXPECT_FALSE(options->mode.has_value());
  EXPECT_FALSE(options->seed.has_value());
  EXPECT_TRUE(options->sizes.empty());
  EXPECT_TRUE(options->time_baseline);
  EXPECT_DOUBLE_EQ(options->timeout_floor_ms, defaults.timeout_floor_ms);
  EXPECT_DOUBLE_EQ(options->timeout_ceiling_ms, defaults.timeout_ceiling_ms);
  EXPECT_TRUE(options->worker_path.empty());
}

TEST(Options, EvalRejectsInconsistentValues) {
  EvalArgs floor_above_ceiling;
  floor_above_ceiling.timeout_floor_ms = 70000.0;  // above the default ceiling of 60 s
  auto a = eval_options_from(floor_above_ceiling, {});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("--timeout-floor-ms"), std::string::npos);

  EvalArgs bad_tier;
  bad_tier.tier = "fast";
  EXPECT_FALSE(eval_options_from(bad_tier, {}).ok());

  EvalArgs bad_flag;
  bad_flag.flags = {"O3"};
  auto c = eval_options_from(bad_flag, {});
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, ErrorCode::invalid_argument);

  EvalArgs negative_device;
  negative_device.device = -1;
  EXPECT_FALSE(eval_options_from(negative_device, {}).ok());
}

TEST(Options, OutputPathMustBeAFileInAnExistingFolder) {
  auto dir = std::filesystem::temp_directory_path();
  EXPECT_TRUE(check_output_path(dir / "kopt_report.json").ok());
  EXPECT_TRUE(check_output_path("report.json").ok());
  auto folder = check_output_path(dir);
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().message.find("is a folder"), std::string::npos);
  auto missing = check_output_path(dir / "kopt-no-such-folder-7f3a" / "r.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::io_error);

  EvalArgs args;
  args.out = (dir / "kopt-no-such-folder-7f3a" / "r.json").string();
  EXPECT_FALSE(eval_options_from(args, {}).ok());
}

TEST(Options, WorkerPathFromEnvironment) {
  EXPECT_TRUE(worker_path_from_env(nullptr).empty());
  EXPECT_TRUE(worker_path_from_env("").empty());
  EXPECT_EQ(worker_path_from_env("/x/kopt-worker"), "/x/kopt-worker");
}

TEST(Options, TaskCheckOptions) {
  TaskCheckArgs args;
  args.seed = "7";
  args.device = 2;
  auto options = task_check_options_from(args, "/w");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->seed, std::optional<std::uint64_t>(7));
  EXPECT_EQ(options->device, 2);
  EXPECT_EQ(options->worker_path, "/w");
  args.seed = "seven";
  EXPECT_FALSE(task_check_options_from(args, {}).ok());
}

}  // namespace options_test
}  // namespace kopt::cli
