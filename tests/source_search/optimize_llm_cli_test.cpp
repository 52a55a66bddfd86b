// `kopt optimize --proposer llm|mixed` on the command line: the options as parsed, usage errors, and through
// the built kopt executable, no LLM configured: exit code 2 with a message naming the variable, before any
// GPU work.
#include <gtest/gtest.h>

#include "cli/optimize_arguments.hpp"
#include "cli/parse_support.hpp"
#include "source_search/source_search_fixtures.hpp"
#include "support/kopt_process.hpp"

namespace kopt {
namespace optimize_llm_cli_test {

namespace fs = std::filesystem;
using cli::test::parse;

TEST(OptimizeLlmArguments, TheProposerAndItsLimitsAreParsed) {
  auto run =
      parse({"optimize", "examples/softmax", "--from", "k.cu", "--proposer", "mixed", "--max-cost", "2",
             "--max-calls", "40", "--repairs", "3", "--node-budget", "5", "--prompts", "p", "--judge"});
  ASSERT_TRUE(run.parsed.arguments) << run.err;
  auto const& a = run.parsed.arguments->optimize;
  EXPECT_EQ(a.proposer, "mixed");
  EXPECT_DOUBLE_EQ(a.max_cost_usd.value_or(0), 2.0);
  EXPECT_EQ(a.max_calls, 40);
  EXPECT_EQ(a.repairs, 3);
  EXPECT_EQ(a.node_budget, 5U);
  EXPECT_EQ(a.prompts, "p");
  EXPECT_TRUE(a.judge);
  EXPECT_TRUE(cli::check_optimize_args(a));

  auto defaults = parse({"optimize", "examples/softmax", "--from", "k.cu"});
  ASSERT_TRUE(defaults.parsed.arguments);
  EXPECT_EQ(defaults.parsed.arguments->optimize.proposer, "builtin");
}

TEST(OptimizeLlmArguments, BadValuesAndCombinationsAreUsageErrors) {
  auto bad = parse({"optimize", "examples/softmax", "--from", "k.cu", "--proposer", "oracle"});
  EXPECT_FALSE(bad.parsed.arguments);
  EXPECT_EQ(bad.parsed.exit_code, 2);
  EXPECT_NE(bad.err.find("--proposer"), std::string::npos) << bad.err;

  cli::OptimizeArgs no_from;
  no_from.task_dir = "examples/softmax";
  no_from.proposer = "llm";
  auto checked = cli::check_optimize_args(no_from);
  ASSERT_FALSE(checked);
  EXPECT_NE(checked.error().message.find("--from"), std::string::npos);

  cli::OptimizeArgs limits;
  limits.task_dir = "examples/softmax";
  limits.from = "k.cu";
  limits.max_calls = 3;
  auto refused = cli::check_optimize_args(limits);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("--proposer llm"), std::string::npos);
}

TEST(OptimizeLlmArguments, HelpExplainsTheProposerWithAnExample) {
  auto run = parse({"optimize", "--help"});
  EXPECT_EQ(run.parsed.exit_code, 0);
  for (char const* text : {"--proposer", "--proposer llm --budget 60 --max-cost 2.00", "KOPT_LLM_", "mixed",
                           "llm-replay/optimize.jsonl"}) {
    EXPECT_NE(run.out.find(text), std::string::npos) << text;
  }
}

using KoptOptimizeLlm = test::KoptProcessTest;

TEST_F(KoptOptimizeLlm, NoBackendConfiguredIsExitCodeTwoWithAClearMessage) {
  std::string const args =
      "optimize examples/softmax --from examples/softmax/candidates/softmax_warp_kernel.cu "
      "--proposer llm --store " +
      (dir.path() / "kopt.db").string();
  auto unset = run("", args);
  EXPECT_EQ(unset.exit_code, 2) << unset.err;
  EXPECT_NE(unset.err.find("KOPT_LLM_BASE_URL"), std::string::npos) << unset.err;

  auto json = run("", args + " --json");
  EXPECT_EQ(json.exit_code, 2);
  auto const document = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << json.out;
  EXPECT_EQ(document["error"]["exit_code"], 2);

  auto bad = run("", "optimize examples/softmax --from k.cu --proposer sometimes");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--proposer"), std::string::npos) << bad.err;
}

}  // namespace optimize_llm_cli_test
}  // namespace kopt
