// --device, --gpus and --queue on optimize, bench and generate, and how make_search_evaluator reads them.
#include <gtest/gtest.h>

#include "cli/parse_support.hpp"
#include "cli/search_evaluator.hpp"

namespace kopt::cli {
namespace evaluator_options_test {

using test::parse;

TEST(GpuList, ReadsAllOrIndicesInTheOrderGiven) {
  auto all = parse_gpu_list("all");
  ASSERT_TRUE(all);
  EXPECT_FALSE(all->has_value());
  auto unset = parse_gpu_list("");
  ASSERT_TRUE(unset);
  EXPECT_FALSE(unset->has_value());
  auto list = parse_gpu_list("3,0,12");
  ASSERT_TRUE(list) << list.error().message;
  EXPECT_EQ(**list, (std::vector<int>{3, 0, 12}));
}

TEST(GpuList, RefusesWhatIsNotAListOfDistinctIndicesAndSaysWhatItExpected) {
  for (char const* bad : {"0,,1", "0,", "x", "-1", "1.5", "0 1", "ALL"}) {
    auto parsed = parse_gpu_list(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(parsed.error().message.find("--gpus '" + std::string(bad) + "'"), std::string::npos)
        << parsed.error().message;
    EXPECT_NE(parsed.error().message.find("such as 0,1,3"), std::string::npos);
  }
  auto twice = parse_gpu_list("1,2,1");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("GPU 1 is listed twice"), std::string::npos) << twice.error().message;
}

TEST(EvaluatorOptions, OptimizeBenchAndGenerateTakeOneOfDeviceGpusAndQueue) {
  auto gpus = parse({"optimize", "t", "--gpus", "0,1"});
  ASSERT_TRUE(gpus.parsed.arguments) << gpus.err;
  EXPECT_EQ(gpus.parsed.arguments->optimize.evaluator.gpus, "0,1");
  EXPECT_FALSE(gpus.parsed.arguments->optimize.evaluator.device_given);

  auto device = parse({"optimize", "t", "--device", "2"});
  ASSERT_TRUE(device.parsed.arguments) << device.err;
  EXPECT_EQ(device.parsed.arguments->optimize.evaluator.device, 2);
  EXPECT_TRUE(device.parsed.arguments->optimize.evaluator.device_given);

  auto neither = parse({"optimize", "t"});
  ASSERT_TRUE(neither.parsed.arguments) << neither.err;
  EXPECT_FALSE(neither.parsed.arguments->optimize.evaluator.device_given);
  EXPECT_TRUE(neither.parsed.arguments->optimize.evaluator.gpus.empty());

  EXPECT_EQ(parse({"optimize", "t", "--gpus", "0", "--device", "1"}).parsed.exit_code, 2);
  auto bench = parse({"bench", "suites/", "--gpus", "all"});
  ASSERT_TRUE(bench.parsed.arguments) << bench.err;
  EXPECT_EQ(bench.parsed.arguments->bench.evaluator.gpus, "all");
  EXPECT_EQ(parse({"bench", "suites/", "--gpus", "all", "--device", "0"}).parsed.exit_code, 2);
  EXPECT_EQ(parse({"optimize", "t", "--gpus", "0", "--queue", "redis://head"}).parsed.exit_code, 2);
  EXPECT_EQ(parse({"optimize", "t", "--device", "0", "--queue", "redis://head"}).parsed.exit_code, 2);
  EXPECT_EQ(parse({"optimize", "t", "--queue-gpu", "NVIDIA H200"}).parsed.exit_code, 2) << "needs --queue";
  auto model = parse({"optimize", "t", "--queue", "redis://head", "--queue-gpu", "NVIDIA H200"});
  ASSERT_TRUE(model.parsed.arguments) << model.err;
  EXPECT_EQ(model.parsed.arguments->optimize.evaluator.queue_gpu, "NVIDIA H200");
  auto farm_bench = parse({"bench", "suites/", "--queue", "redis://head:6380"});
  ASSERT_TRUE(farm_bench.parsed.arguments) << farm_bench.err;
  EXPECT_EQ(farm_bench.parsed.arguments->bench.evaluator.queue, "redis://head:6380");
  auto farm_generate =
      parse({"generate", "examples/softmax", "--intent", "softmax over rows", "--queue", "redis://head"});
  ASSERT_TRUE(farm_generate.parsed.arguments) << farm_generate.err;
  EXPECT_EQ(farm_generate.parsed.arguments->generate.evaluator.queue, "redis://head");
}

TEST(EvaluatorOptions, HelpSaysWhereTheConfirmTierRuns) {
  auto const help = parse({"optimize", "--help"});
  EXPECT_NE(help.out.find("--gpus"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("confirm-tier"), std::string::npos) << help.out;
}

TEST(SearchEvaluator, RefusesGpusTheFarmChoosesAndABadListBeforeStartingAnything) {
  std::vector<std::string> notes;
  SearchEvaluatorRequest farm;
  farm.where.queue = "redis://127.0.0.1:1";
  farm.where.gpus = "0,1";
  auto on_farm = make_search_evaluator(farm, notes);
  ASSERT_FALSE(on_farm);
  EXPECT_EQ(on_farm.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(on_farm.error().message.find("--gpus with --queue"), std::string::npos)
      << on_farm.error().message;
  EXPECT_EQ(evaluator_error_origin(on_farm.error()), ErrorOrigin::input);

  SearchEvaluatorRequest bad;
  bad.where.gpus = "0,zero";
  auto refused = make_search_evaluator(bad, notes);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("'zero' is not a GPU index"), std::string::npos)
      << refused.error().message;
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(evaluator_error_origin(Error{ErrorCode::no_gpu, "no GPU"}), ErrorOrigin::environment);
}

}  // namespace evaluator_options_test
}  // namespace kopt::cli
