// `kopt generate` on the command line: the options as parsed, usage errors (no --intent, a blank one, bad
// limits), and through the built kopt executable, a missing or invalid LLM configuration: exit code 2 with a
// message naming the variable, before any GPU work.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cli/arguments.hpp"
#include "cli/parse_support.hpp"
#include "generate/generate_fixtures.hpp"
#include "support/kopt_process.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace generate_cli_test {

namespace fs = std::filesystem;
using cli::test::parse;

TEST(GenerateArguments, EveryOptionIsParsed) {
  auto run = parse({"generate",     "examples/softmax",
                    "--intent",     "row softmax",
                    "-o",           "k.cu",
                    "--strategies", "2",
                    "--repairs",    "0",
                    "--max-cost",   "0.25",
                    "--max-calls",  "9",
                    "--store",      "s.db",
                    "--prompts",    "p",
                    "--library",    "lib",
                    "--mode",       "kernel",
                    "--arch",       "sm_90",
                    "--seed",       "7",
                    "--device",     "1",
                    "--no-confirm", "--json"});
  ASSERT_TRUE(run.parsed.arguments) << run.err;
  auto const& args = *run.parsed.arguments;
  EXPECT_EQ(args.command, "generate");
  auto const& g = args.generate;
  EXPECT_EQ(g.task_dir, "examples/softmax");
  EXPECT_EQ(g.intent, "row softmax");
  EXPECT_EQ(g.out, "k.cu");
  EXPECT_EQ(g.strategies, 2U);
  EXPECT_EQ(g.repairs, 0);
  EXPECT_DOUBLE_EQ(g.max_cost_usd.value_or(0), 0.25);
  EXPECT_EQ(g.max_calls, 9);
  EXPECT_EQ(g.store, "s.db");
  EXPECT_EQ(g.prompts, "p");
  EXPECT_EQ(g.library, "lib");
  EXPECT_EQ(g.mode, "kernel");
  EXPECT_EQ(g.arch, "sm_90");
  EXPECT_EQ(g.seed, 7U);
  EXPECT_EQ(g.evaluator.device, 1);
  EXPECT_TRUE(g.evaluator.device_given);
  EXPECT_TRUE(g.no_confirm);
  EXPECT_TRUE(g.json);
  EXPECT_TRUE(cli::check_generate_args(g));
}

TEST(GenerateArguments, DefaultsAndUsageErrors) {
  auto run = parse({"generate", "examples/softmax", "--intent", "x"});
  ASSERT_TRUE(run.parsed.arguments) << run.err;
  auto const& g = run.parsed.arguments->generate;
  EXPECT_EQ(g.strategies, 4U);
  EXPECT_EQ(g.repairs, 2);
  EXPECT_EQ(g.mode, "launcher");
  EXPECT_FALSE(g.max_cost_usd);
  EXPECT_FALSE(g.max_calls);
  EXPECT_TRUE(g.out.empty());

  auto no_intent = parse({"generate", "examples/softmax"});
  EXPECT_FALSE(no_intent.parsed.arguments);
  EXPECT_EQ(no_intent.parsed.exit_code, 2);
  EXPECT_NE(no_intent.err.find("--intent is required"), std::string::npos) << no_intent.err;
  for (auto const& bad :
       std::vector<std::vector<char const*>>{{"generate", "t", "--intent", "x", "--strategies", "0"},
                                             {"generate", "t", "--intent", "x", "--max-calls", "0"},
                                             {"generate", "t", "--intent", "x", "--max-cost", "-1"},
                                             {"generate", "t", "--intent", "x", "--mode", "both"}}) {
    auto refused = parse(bad);
    EXPECT_FALSE(refused.parsed.arguments) << bad[4] << " " << bad[5];
    EXPECT_EQ(refused.parsed.exit_code, 2);
  }
  cli::GenerateArgs blank;
  blank.intent = "  \n";
  auto checked = cli::check_generate_args(blank);
  ASSERT_FALSE(checked);
  EXPECT_NE(checked.error().message.find("--intent"), std::string::npos);
}

TEST(GenerateArguments, HelpTeachesEnvironmentAndExitCodes) {
  auto run = parse({"generate", "--help"});
  EXPECT_EQ(run.parsed.exit_code, 0);
  for (char const* text : {"KOPT_LLM_BASE_URL", "KOPT_LLM_MODEL", "KOPT_LLM_API_KEY", "KOPT_LLM_REPLAY_FILE",
                           "--max-cost", "Exit code 0", "kopt generate examples/softmax"}) {
    EXPECT_NE(run.out.find(text), std::string::npos) << text;
  }
}

using KoptGenerate = test::KoptProcessTest;

TEST_F(KoptGenerate, AnUnsetOrInvalidConfigurationIsExitCodeTwo) {
  std::string const store =
      " --store " + (dir.path() / "kopt.db").string() + " -o " + (dir.path() / "g.cu").string();
  auto unset = run("", "generate examples/softmax --intent \"row softmax\"" + store);
  EXPECT_EQ(unset.exit_code, 2) << unset.err;
  EXPECT_NE(unset.err.find("KOPT_LLM_BASE_URL"), std::string::npos) << unset.err;

  auto bogus = run("KOPT_LLM_BACKEND=telepathy", "generate examples/softmax --intent x" + store);
  EXPECT_EQ(bogus.exit_code, 2) << bogus.err;
  EXPECT_NE(bogus.err.find("KOPT_LLM_BACKEND: expected one of openai, anthropic, command, replay"),
            std::string::npos)
      << bogus.err;

  auto no_model = run("KOPT_LLM_BASE_URL=http://127.0.0.1:9/v1 KOPT_LLM_API_KEY=sk-secret-value-123",
                      "generate examples/softmax --intent x --json" + store);
  EXPECT_EQ(no_model.exit_code, 2) << no_model.err;
  EXPECT_NE(no_model.err.find("KOPT_LLM_MODEL"), std::string::npos) << no_model.err;
  auto const document = nlohmann::json::parse(no_model.out, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << no_model.out;
  EXPECT_EQ(document["error"]["exit_code"], 2);
  EXPECT_EQ(no_model.out.find("sk-secret-value-123"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir.path() / "g.cu"));
}

TEST_F(KoptGenerate, MissingIntentAndAMissingTaskAreExitCodeTwo) {
  auto no_intent = run("", "generate examples/softmax");
  EXPECT_EQ(no_intent.exit_code, 2);
  EXPECT_NE(no_intent.err.find("--intent"), std::string::npos) << no_intent.err;
  auto no_task = run("", "generate examples/no_such_task --intent x");
  EXPECT_EQ(no_task.exit_code, 2);
  EXPECT_NE(no_task.err.find("no_such_task"), std::string::npos) << no_task.err;
}

}  // namespace generate_cli_test
}  // namespace kopt
