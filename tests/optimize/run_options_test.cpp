// The optimize options as a run's options document (kopt.optimize/1) and back: what --resume reads.
#include "optimize/run_options.hpp"

#include <gtest/gtest.h>

#include "kopt/runs.hpp"

namespace kopt {
namespace run_options_test {

TEST(OptionsJson, KeepsTheObjectiveAndOlderRunsAreRuntime) {
  OptimizeOptions options;
  options.objective = OptimizeObjective::composite;
  nlohmann::json json = optimize_detail::options_json(options, "src");
  EXPECT_EQ(json["objective"], "composite");
  auto back = optimize_detail::options_from_json(json, RunId(4));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->objective, OptimizeObjective::composite);

  json.erase("objective");
  auto old = optimize_detail::options_from_json(json, RunId(4));
  ASSERT_TRUE(old) << old.error().message;
  EXPECT_EQ(old->objective, OptimizeObjective::runtime);

  json["objective"] = "watts";
  auto bad = optimize_detail::options_from_json(json, RunId(4));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("run 4: options.objective"), std::string::npos) << bad.error().message;
}

TEST(OptionsJson, KeepsTheMctsConstantsAndRefusesAnythingButAnObject) {
  OptimizeOptions options;
  options.mcts.exploration = 0.25;
  options.mcts.roots_k = 7.0;
  nlohmann::json json = optimize_detail::options_json(options, "src");
  auto back = optimize_detail::options_from_json(json, RunId(5));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_DOUBLE_EQ(back->mcts.exploration, 0.25);
  EXPECT_DOUBLE_EQ(back->mcts.roots_k, 7.0);

  // The shared fields are the run layer's to read; the MCTS constants are optimize's own.
  auto request = run_request_from_json(json, RunId(5));
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->strategy, "mcts");
  EXPECT_EQ(request->source, "src");

  json["mcts"] = "fast";
  auto bad = optimize_detail::options_from_json(json, RunId(5));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("run 5: options.mcts: expected an object"), std::string::npos)
      << bad.error().message;
}

}  // namespace run_options_test
}  // namespace kopt
