// Resource failures: classification and the configurations a failure rules out.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "kopt/tuning.hpp"

namespace kopt {
namespace invalid_configs_test {

TuningSpace space_of(std::string const& source) {
  auto space = TuningSpace::parse(source);
  if (!space) throw std::runtime_error(space.error().message);
  return std::move(*space);
}

TEST(TuningInvalidConfigs, ClassifiesResourceFailures) {
  EXPECT_EQ(classify_resource_failure(CandidateStatus::compile_error,
                                      "ptxas error   : Entry function '_Z4tileILi64EEvPf' uses too much "
                                      "shared data (0x18000 bytes, 0xc000 max)"),
            ResourceKind::shared_memory);
  EXPECT_EQ(classify_resource_failure(
                CandidateStatus::compile_error,
                "ptxas error   : Entry function 'k' uses too much local data (0x80000 bytes)"),
            ResourceKind::local_memory);
  EXPECT_EQ(classify_resource_failure(CandidateStatus::launch_error,
                                      "launch failed: too many resources requested for launch"),
            ResourceKind::registers);
  EXPECT_EQ(classify_resource_failure(
                CandidateStatus::launch_error,
                "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many resources requested for launch"),
            ResourceKind::registers);
  EXPECT_EQ(classify_resource_failure(CandidateStatus::launch_error, "launch failed: invalid argument"),
            ResourceKind::launch_limits);
  EXPECT_EQ(classify_resource_failure(CandidateStatus::launch_error, "invalid configuration argument"),
            ResourceKind::launch_limits);
  // Not resource failures.
  EXPECT_FALSE(classify_resource_failure(CandidateStatus::compile_error,
                                         "cand.cu(3): error: identifier \"x\" is undefined"));
  EXPECT_FALSE(
      classify_resource_failure(CandidateStatus::runtime_error, "too many resources requested for launch"));
  EXPECT_FALSE(classify_resource_failure(CandidateStatus::wrong_output, "uses too much shared data"));
  EXPECT_FALSE(classify_resource_failure(CandidateStatus::launch_error,
                                         "CUDA_ERROR_NOT_FOUND: named symbol not found"));
}

constexpr char kSource[] = R"(// kopt:knob BLOCK = [64, 128, 256, 512]
// kopt:knob MINB = [1, 2, 4] resources=decreasing
// kopt:knob MODE = [0, 1, 2] resources=none
// kopt:flag MAXRREG = ["", "-maxrregcount=64"]
)";

TEST(TuningInvalidConfigs, LearnsAndPrunesConfigurationsAtLeastAsHungry) {
  TuningSpace const space = space_of(kSource);
  InvalidConfigs invalid(space);
  Configuration const failed{{2, 1, 1, 0}};  // BLOCK=256 MINB=2 MODE=1 MAXRREG=""
  EXPECT_FALSE(invalid.why_pruned(failed));
  EXPECT_FALSE(invalid.record(failed, CandidateStatus::wrong_output, "mismatch"));
  EXPECT_TRUE(invalid.entries().empty());
  ASSERT_TRUE(
      invalid.record(failed, CandidateStatus::launch_error, "too many resources requested for launch"));
  ASSERT_EQ(invalid.entries().size(), 1u);
  EXPECT_EQ(invalid.entries()[0].kind, ResourceKind::registers);

  auto const same = invalid.why_pruned(failed);
  ASSERT_TRUE(same);
  EXPECT_EQ(*same, "failed for registers: too many resources requested for launch");
  // BLOCK is increasing: larger blocks are ruled out, smaller ones are not.
  auto const bigger = invalid.why_pruned(Configuration{{3, 1, 1, 0}});
  ASSERT_TRUE(bigger);
  EXPECT_EQ(
      bigger->rfind("at least as resource-hungry as BLOCK=256;MAXRREG=\"\";MINB=2;MODE=1, which failed", 0),
      0u)
      << *bigger;
  EXPECT_FALSE(invalid.why_pruned(Configuration{{1, 1, 1, 0}}));
  // MINB is decreasing: a smaller minimum of resident blocks allows more registers.
  EXPECT_TRUE(invalid.why_pruned(Configuration{{2, 0, 1, 0}}));
  EXPECT_FALSE(invalid.why_pruned(Configuration{{2, 2, 1, 0}}));
  // MODE (none) and flag knobs never generalise.
  EXPECT_FALSE(invalid.why_pruned(Configuration{{2, 1, 2, 0}}));
  EXPECT_FALSE(invalid.why_pruned(Configuration{{2, 1, 1, 1}}));
  // Two knobs moved: no conclusion, even when both move the hungry way.
  EXPECT_FALSE(invalid.why_pruned(Configuration{{3, 0, 1, 0}}));
}

TEST(TuningInvalidConfigs, RecordsExplicitFailuresAndRejectsForeignConfigurations) {
  TuningSpace const space = space_of(kSource);
  InvalidConfigs invalid(space);
  invalid.record(Configuration{{0, 0, 0, 0}}, ResourceKind::shared_memory, "uses too much shared data");
  EXPECT_TRUE(invalid.why_pruned(Configuration{{1, 0, 0, 0}}));
  EXPECT_TRUE(invalid.why_pruned(Configuration{{3, 0, 0, 0}}));
  EXPECT_FALSE(invalid.why_pruned(Configuration{{0, 1, 0, 0}}));
  EXPECT_THROW(invalid.record(Configuration{{0, 0}}, ResourceKind::registers, "x"), std::invalid_argument);
  EXPECT_THROW(invalid.record(Configuration{{4, 0, 0, 0}}, ResourceKind::registers, "x"),
               std::invalid_argument);
  EXPECT_EQ(invalid.entries().size(), 1u);
  EXPECT_FALSE(invalid.why_pruned(Configuration{{0, 0}}));
}

}  // namespace invalid_configs_test
}  // namespace kopt
