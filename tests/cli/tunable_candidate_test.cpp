// `kopt eval` on a tunable kernel-mode candidate (concretise_tunable_candidates): the knobs its launch line
// names take the -D flags' values or the source's defaults, as `kopt optimize` would compile that
// configuration.
#include "cli/tunable_candidate.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kopt/compile.hpp"

namespace kopt::cli {
namespace tunable_candidate_test {

// A grid-stride vector_add whose block size and grid are knobs, as the strategy templates write them.
constexpr char const* kTunable = R"(// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob WAVES = [1, 2, 4]
// kopt:launch grid=(min(ceil_div(n, BLOCK), 132 * WAVES)) block=(BLOCK)
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef WAVES
#define WAVES 2
#endif
extern "C" __global__ void __launch_bounds__(BLOCK) vector_add(float* c, const float* a, const float* b, int n) {
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) c[i] = a[i] + b[i];
}
)";

TaskSpec vector_add() {
  auto task = load_task(std::string(KOPT_SOURCE_DIR) + "/examples/vector_add");
  EXPECT_TRUE(task.ok());
  return task ? *task : TaskSpec{};
}

CandidateSource candidate(std::string text) {
  CandidateSource source;
  source.name = "tunable.cu";
  source.path = "tunable.cu";
  source.source = std::move(text);
  return source;
}

TEST(TunableCandidate, TheLaunchLineTakesTheDefaultsAndTheSourceDefinesThem) {
  TaskSpec const task = vector_add();
  std::vector<CandidateSource> candidates{candidate(kTunable)};
  auto notes = concretise_tunable_candidates(task, candidates, {});
  ASSERT_TRUE(notes.ok()) << notes.error().message;
  ASSERT_EQ(notes->size(), 1u);
  EXPECT_NE((*notes)[0].find("evaluating BLOCK=256;WAVES=2 (its defaults;"), std::string::npos)
      << (*notes)[0];
  auto const launch = candidate_launch(candidates[0].source, task.launch, task.signature.function);
  ASSERT_TRUE(launch.ok()) << launch.error().message;
  ASSERT_EQ(launch->block.size(), 1u);
  EXPECT_EQ(launch->block[0].identifiers(), std::vector<std::string>{});  // numbers only: it evaluates
  EXPECT_NE(candidates[0].source.find("#define BLOCK 256"), std::string::npos);
}

TEST(TunableCandidate, AKnobDefinedByAFlagTakesItsValueAndAnUnlistedOneIsRefused) {
  TaskSpec const task = vector_add();
  std::vector<CandidateSource> candidates{candidate(kTunable)};
  candidates[0].flags = {"-DWAVES=4"};
  auto notes = concretise_tunable_candidates(task, candidates, {"-DBLOCK=512"});
  ASSERT_TRUE(notes.ok()) << notes.error().message;
  EXPECT_NE((*notes)[0].find("evaluating BLOCK=512;WAVES=4 (BLOCK, WAVES from -D flags"), std::string::npos)
      << (*notes)[0];

  std::vector<CandidateSource> unlisted{candidate(kTunable)};
  auto refused = concretise_tunable_candidates(task, unlisted, {"-DBLOCK=300"});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(
      refused.error().message.find("-DBLOCK=300 is not a value of its knob BLOCK (line 1); expected one of "
                                   "128, 256, 512"),
      std::string::npos)
      << refused.error().message;
}

TEST(TunableCandidate, CandidatesWithoutKnobsInTheirLaunchLineAreLeftAsTheyAre) {
  TaskSpec const task = vector_add();
  std::string const plain =
      "// kopt:launch grid=(ceil_div(n, 256)) block=(256)\n"
      "extern \"C\" __global__ void vector_add(float* c, const float* a, const float* b, "
      "int n) {}\n";
  std::string const launcher =
      "// kopt:knob BLOCK = [128, 256]\n#ifndef BLOCK\n#define BLOCK 128\n#endif\n"
      "extern \"C\" void vector_add(float* c, const float* a, const float* b, int n) {}\n";
  std::vector<CandidateSource> candidates{candidate(plain), candidate(launcher)};
  auto notes = concretise_tunable_candidates(task, candidates, {});
  ASSERT_TRUE(notes.ok());
  EXPECT_TRUE(notes->empty());
  EXPECT_EQ(candidates[0].source, plain);
  EXPECT_EQ(candidates[1].source, launcher);
}

}  // namespace tunable_candidate_test
}  // namespace kopt::cli
