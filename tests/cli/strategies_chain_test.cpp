// `kopt strategies TASK` on a chain task (docs/strategies.md, "Chains"): each stage's strategies and the
// combinations the proposer screens, as text and --json; --instantiate NAME prints one combination's source;
// --write-binding is refused (a chain's bindings are its stages').
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/kopt_process.hpp"

namespace kopt {
namespace strategies_chain_test {

using test::KoptProcessTest;

std::string const kTask = "suites/llm/linear_gelu_softmax-bf16";

TEST_F(KoptProcessTest, AChainListsItsStagesAndCombinations) {
  auto const text = run("", "strategies " + kTask);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("a chain of 2 stages"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("stage 1: row_softmax (t0 -> out)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("+ linear_tensor_core_mma + softmax_"), std::string::npos) << text.out;

  auto const listed = run("", "strategies " + kTask + " --json");
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  auto const json = nlohmann::json::parse(listed.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << listed.out;
  ASSERT_EQ(json["stages"].size(), 2U);
  EXPECT_EQ(json["stages"][0]["family"], "linear");
  EXPECT_EQ(json["stages"][1]["reads"], nlohmann::json::array({"t0"}));
  ASSERT_FALSE(json["combinations"].empty());
  EXPECT_TRUE(json["skipped"].empty());

  std::string const first = json["combinations"][0].get<std::string>();
  auto const source = run("", "strategies " + kTask + " --instantiate '" + first + "'");
  ASSERT_EQ(source.exit_code, 0) << source.err;
  EXPECT_NE(source.out.find("// kopt chain for task linear_gelu_softmax-bf16"), std::string::npos);
  EXPECT_NE(source.out.find("// kopt:knob S1_"), std::string::npos);

  auto const unknown = run("", "strategies " + kTask + " --instantiate 'no_such + combination'");
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.err.find("not one of the chain's combinations"), std::string::npos) << unknown.err;
  auto const write = run("", "strategies " + kTask + " --write-binding");
  EXPECT_NE(write.exit_code, 0);
  EXPECT_NE(write.err.find("a chain's bindings are its stages'"), std::string::npos) << write.err;
}

}  // namespace strategies_chain_test
}  // namespace kopt
