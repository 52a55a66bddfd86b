#include "cli/arguments.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "parse_support.hpp"

namespace kopt::cli {
namespace arguments_test {

using test::parse;

TEST(Arguments, EvalTakesEveryOption) {
  auto run = parse({"eval",
                    "tasks/softmax",
                    "a.cu",
                    "b.cu",
                    "--json",
                    "--out",
                    "r.json",
                    "--mode",
                    "kernel",
                    "--tier",
                    "screen",
                    "--seed",
                    "42",
                    "--sizes",
                    "small,odd",
                    "--sanitize",
                    "--no-baseline",
                    "--arch",
                    "sm_90",
                    "--gencode",
                    "arch=compute_90,code=sm_90",
                    "--flag=-O3",
                    "--flag=-DTILE=64",
                    "--device",
                    "1",
                    "--timeout-floor-ms",
                    "100",
                    "--timeout-ceiling-ms",
                    "5000"});
  ASSERT_TRUE(run.parsed.arguments.has_value()) << run.err;
  auto const& args = *run.parsed.arguments;
  EXPECT_EQ(args.command, "eval");
  auto const& e = args.eval;
  EXPECT_EQ(e.task_dir, "tasks/softmax");
  EXPECT_EQ(e.candidates, (std::vector<std::string>{"a.cu", "b.cu"}));
  EXPECT_TRUE(e.json);
  EXPECT_EQ(e.out, "r.json");
  EXPECT_EQ(e.mode, "kernel");
  EXPECT_EQ(e.tier, "screen");
  EXPECT_EQ(e.seed, "42");
  EXPECT_EQ(e.sizes, "small,odd");
  EXPECT_TRUE(e.sanitize);
  EXPECT_TRUE(e.no_baseline);
  EXPECT_EQ(e.arch, "sm_90");
  EXPECT_EQ(e.gencode, (std::vector<std::string>{"arch=compute_90,code=sm_90"}));
  EXPECT_EQ(e.flags, (std::vector<std::string>{"-O3", "-DTILE=64"}));
  EXPECT_EQ(e.device, 1);
  EXPECT_EQ(e.timeout_floor_ms, std::optional<double>(100.0));
  EXPECT_EQ(e.timeout_ceiling_ms, std::optional<double>(5000.0));
}

TEST(Arguments, RepeatableOptionsDoNotSwallowCandidates) {
  auto run =
      parse({"eval", "t", "a.cu", "--flag=-O3", "b.cu", "--gencode", "arch=compute_90,code=sm_90", "c.cu"});
  ASSERT_TRUE(run.parsed.arguments.has_value()) << run.err;
  EXPECT_EQ(run.parsed.arguments->eval.candidates, (std::vector<std::string>{"a.cu", "b.cu", "c.cu"}));
  EXPECT_EQ(run.parsed.arguments->eval.flags, (std::vector<std::string>{"-O3"}));
}

TEST(Arguments, GlobalFlagsBeforeOrAfterTheCommand) {
  auto before = parse({"--verbose", "--no-color", "doctor"});
  ASSERT_TRUE(before.parsed.arguments.has_value()) << before.err;
  EXPECT_TRUE(before.parsed.arguments->global.verbose);
  EXPECT_TRUE(before.parsed.arguments->global.no_color);
  auto after = parse({"doctor", "--json", "--device", "2", "--verbose"});
  ASSERT_TRUE(after.parsed.arguments.has_value()) << after.err;
  EXPECT_EQ(after.parsed.arguments->command, "doctor");
  EXPECT_TRUE(after.parsed.arguments->doctor.json);
  EXPECT_EQ(after.parsed.arguments->doctor.device, 2);
  EXPECT_TRUE(after.parsed.arguments->global.verbose);
}

TEST(Arguments, InitAndTaskCheck) {
  auto init = parse({"init", "softmax.cu", "-o", "tasks/softmax", "--force"});
  ASSERT_TRUE(init.parsed.arguments.has_value()) << init.err;
  EXPECT_EQ(init.parsed.arguments->command, "init");
  EXPECT_EQ(init.parsed.arguments->init.launcher, "softmax.cu");
  EXPECT_EQ(init.parsed.arguments->init.out_dir, "tasks/softmax");
  EXPECT_TRUE(init.parsed.arguments->init.force);

  auto check = parse({"task", "check", "tasks/softmax", "--seed", "9", "--json"});
  ASSERT_TRUE(check.parsed.arguments.has_value()) << check.err;
  EXPECT_EQ(check.parsed.arguments->command, "task check");
  EXPECT_EQ(check.parsed.arguments->task_check.task_dir, "tasks/softmax");
  EXPECT_EQ(check.parsed.arguments->task_check.seed, "9");
  EXPECT_TRUE(check.parsed.arguments->task_check.json);
}

TEST(Arguments, UsageErrorsExitWithTwo) {
  for (auto const& args : std::vector<std::vector<char const*>>{
           {},
           {"eval", "tasks/softmax"},
           {"eval", "t", "a.cu", "--mode", "fast"},
           {"eval", "t", "a.cu", "--tier", "quick"},
           {"eval", "t", "a.cu", "--device", "-1"},
           {"eval", "t", "a.cu", "--timeout-floor-ms", "0"},
           {"task"},
           {"frobnicate"},
           {"doctor", "--unknown"},
       }) {
    auto run = parse(args);
    EXPECT_FALSE(run.parsed.arguments.has_value());
    EXPECT_EQ(run.parsed.exit_code, 2) << (args.empty() ? "(none)" : args[0]);
    EXPECT_EQ(run.err.rfind("kopt: error: ", 0), 0U) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
  }
}

TEST(Arguments, UsageErrorWithJsonAlsoPrintsAJsonError) {
  auto run = parse({"eval", "t", "--json"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["error"]["code"], "invalid_argument");
  EXPECT_EQ(json["error"]["exit_code"], 2);
  EXPECT_FALSE(json["error"]["message"].get<std::string>().empty());
}

TEST(Arguments, HelpTeachesAndExitsZero) {
  auto top = parse({"--help"});
  EXPECT_FALSE(top.parsed.arguments.has_value());
  EXPECT_EQ(top.parsed.exit_code, 0);
  for (char const* text : {"eval", "doctor", "init", "task", "Exit codes:", "kopt config",
                           "docs/configuration.md", "--no-color"}) {
    EXPECT_NE(top.out.find(text), std::string::npos) << text;
  }
  auto eval = parse({"eval", "--help"});
  EXPECT_EQ(eval.parsed.exit_code, 0);
  for (char const* text :
       {"Examples:", "kopt eval tasks/softmax cand.cu", "vs vendor", "% SOL", "--timeout-floor-ms"}) {
    EXPECT_NE(eval.out.find(text), std::string::npos) << text << "\n" << eval.out;
  }
  auto check = parse({"task", "check", "--help"});
  EXPECT_EQ(check.parsed.exit_code, 0);
  EXPECT_NE(check.out.find("kopt task check tasks/softmax"), std::string::npos) << check.out;
}

TEST(Arguments, VersionExitsZero) {
  auto run = parse({"--version"});
  EXPECT_EQ(run.parsed.exit_code, 0);
  EXPECT_EQ(run.out.rfind("kopt ", 0), 0U) << run.out;
}

TEST(Arguments, WantsJsonScansArguments) {
  std::vector<char const*> with{"kopt", "eval", "--json"};
  std::vector<char const*> without{"kopt", "eval", "--jsonx"};
  EXPECT_TRUE(wants_json(3, with.data()));
  EXPECT_FALSE(wants_json(3, without.data()));
}

}  // namespace arguments_test
}  // namespace kopt::cli
