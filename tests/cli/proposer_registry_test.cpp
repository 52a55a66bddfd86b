#include "cli/proposer_registry.hpp"

#include <gtest/gtest.h>

#include <set>

#include "cli/parse_support.hpp"

namespace kopt::cli {
namespace proposer_registry_test {

using test::parse;

// The arguments of `kopt optimize TASK --proposer NAME` plus `extra`, parsed (the parse must succeed).
OptimizeArgs optimize_args(OptimizeProposer const& proposer, std::vector<char const*> extra) {
  std::string const name(proposer.name);
  std::vector<char const*> argv = {"optimize", "t", "--proposer", name.c_str()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto const run = parse(argv);
  EXPECT_TRUE(run.parsed.arguments) << run.err;
  return run.parsed.arguments ? run.parsed.arguments->optimize : OptimizeArgs{};
}

TEST(ProposerRegistry, NamesAreUniqueAndTheFirstIsTheDefault) {
  std::set<std::string_view> names;
  for (OptimizeProposer const& proposer : optimize_proposers()) {
    EXPECT_TRUE(names.insert(proposer.name).second) << proposer.name;
    EXPECT_EQ(find_optimize_proposer(proposer.name), &proposer);
    EXPECT_FALSE(proposer.description.empty()) << proposer.name;
  }
  EXPECT_EQ(find_optimize_proposer("genetic"), nullptr);
  auto const run = parse({"optimize", "t", "--from", "k.cu"});
  ASSERT_TRUE(run.parsed.arguments) << run.err;
  EXPECT_EQ(run.parsed.arguments->optimize.proposer, optimize_proposers().front().name);
  EXPECT_EQ(llm_proposer_names(), "llm or mixed");
}

TEST(ProposerRegistry, TheOptionTakesExactlyTheRegisteredNames) {
  for (OptimizeProposer const& proposer : optimize_proposers()) {
    std::string const name(proposer.name);
    EXPECT_TRUE(parse({"optimize", "t", "--from", "k.cu", "--proposer", name.c_str()}).parsed.arguments)
        << name;
  }
  auto const unknown = parse({"optimize", "t", "--from", "k.cu", "--proposer", "genetic"});
  EXPECT_EQ(unknown.parsed.exit_code, 2);
  EXPECT_NE(unknown.err.find("genetic"), std::string::npos) << unknown.err;
}

TEST(ProposerRegistry, NeedsSourceIsWhatRequiresFrom) {
  for (OptimizeProposer const& proposer : optimize_proposers()) {
    auto const status = check_optimize_args(optimize_args(proposer, {}));
    EXPECT_EQ(!status, proposer.needs_source) << proposer.name;
    if (!status) {
      EXPECT_NE(status.error().message.find("expected --from"), std::string::npos);
    }
    EXPECT_TRUE(check_optimize_args(optimize_args(proposer, {"--from", "k.cu"}))) << proposer.name;
  }
}

TEST(ProposerRegistry, AnyObjectiveIsWhatAllowsEnergy) {
  for (OptimizeProposer const& proposer : optimize_proposers()) {
    auto const status =
        check_optimize_args(optimize_args(proposer, {"--from", "k.cu", "--objective", "energy"}));
    EXPECT_EQ(static_cast<bool>(status), proposer.any_objective) << proposer.name;
  }
}

TEST(ProposerRegistry, NeedsLlmIsWhatAllowsCostAndCallLimits) {
  for (OptimizeProposer const& proposer : optimize_proposers()) {
    for (auto const* limit : {"--max-cost", "--max-calls"}) {
      auto const status = check_optimize_args(optimize_args(proposer, {"--from", "k.cu", limit, "3"}));
      EXPECT_EQ(static_cast<bool>(status), proposer.needs_llm) << proposer.name << " " << limit;
      if (!status) {
        EXPECT_EQ(status.error().message,
                  "--max-cost/--max-calls limit LLM calls (expected --proposer llm or mixed)");
      }
    }
  }
}

TEST(ProposerRegistry, HelpListsEveryProposerWithWhatItNeeds) {
  auto const run = parse({"optimize", "--help"});
  for (OptimizeProposer const& proposer : optimize_proposers())
    EXPECT_NE(run.out.find(std::string(proposer.description)), std::string::npos) << proposer.name;
  EXPECT_NE(run.out.find("builtin (default): "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("; needs --from, KOPT_LLM_*"), std::string::npos) << run.out;
}

}  // namespace proposer_registry_test
}  // namespace kopt::cli
