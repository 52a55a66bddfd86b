// One kernel per size case (docs/strategies.md, "Dispatch by size"): the plan from screen speedups, the
// dispatching source (compiled by nvcc, and its choice of variant run on the host), the library's own
// kernels in one launcher, and the proposer's run of it on a fake evaluator.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/store.hpp"
#include "kopt/tuning.hpp"
#include "propose/propose_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/nvcc.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace size_dispatch_test {

namespace fs = std::filesystem;

std::string const kRowsTask = R"(name = "rows"
description = "out[r] = scale * sum of row r"
family = "row_reduce"
[entry]
signature = 'extern "C" void row_sum(float* out, const float* in, int rows, int cols, float scale)'
[scalars]
scale = 1.0
[buffers.out]
length = "rows"
[buffers.in]
length = "rows*cols"
[[sizes]]
name = "odd"
rows = 7
cols = 5
verify_only = true
[[sizes]]
name = "wide"
rows = 128
cols = 262144
[[sizes]]
name = "tall"
rows = 65536
cols = 1024
[reference]
source = "reference.cu"
[launch]
grid = ["rows"]
block = ["256"]
)";

struct SizeDispatchFixture : ::testing::Test {
  void SetUp() override {
    test::write_file(dir.path() / "task" / "reference.cu", "\n");
    auto parsed = parse_task(kRowsTask, dir.path() / "task" / "task.toml", dir.path() / "task");
    ASSERT_TRUE(parsed) << parsed.error().message;
    task = *parsed;
  }
  test::TempDir dir;
  TaskSpec task;
};

ScreenedCandidate screened(std::string const& strategy, std::map<std::string, double, std::less<>> speedups,
                           std::vector<std::string> flags = {}) {
  ScreenedCandidate c;
  c.strategy = strategy;
  c.input.name = strategy + "-config";
  c.input.source = "// " + strategy + "\n";
  c.input.flags = std::move(flags);
  c.speedups = std::move(speedups);
  return c;
}

TEST_F(SizeDispatchFixture, TwoKernelsThatWinAtDifferentSizesAreBothKept) {
  auto const choice = plan_size_dispatch(task, {screened("wide_kernel", {{"wide", 4.0}, {"tall", 1.0}}),
                                                screened("tall_kernel", {{"wide", 1.5}, {"tall", 3.0}})});
  ASSERT_TRUE(choice.plan) << choice.reason;
  SizeDispatchPlan const& plan = *choice.plan;
  ASSERT_EQ(plan.variants.size(), 2u);
  EXPECT_EQ(plan.variants[0].strategy, "wide_kernel");
  EXPECT_EQ(plan.variants[0].sizes, std::vector<std::string>{"wide"});
  EXPECT_EQ(plan.variants[1].strategy, "tall_kernel");
  EXPECT_EQ(plan.variants[1].sizes, std::vector<std::string>{"tall"});
  EXPECT_EQ(plan.scalars, (std::vector<std::string>{"rows", "cols"}));  // not the float scale
  ASSERT_EQ(plan.cases.size(), 2u);                                     // the verify-only case is not timed
  EXPECT_EQ(plan.cases[0].point, (std::vector<std::int64_t>{128, 262144}));
  EXPECT_EQ(plan.cases[1].variant, 1u);
  EXPECT_NEAR(plan.predicted_speedup, std::sqrt(12.0), 1e-12);
  EXPECT_NEAR(plan.single_speedup, std::sqrt(4.5), 1e-12);
  EXPECT_EQ(plan.single_strategy, "tall_kernel");
}

// A launcher that takes the caller's stream: the stream is not a size the dispatch chooses by.
TEST_F(SizeDispatchFixture, TheCallersStreamIsNoSizeToDispatchOn) {
  auto signature = parse_signature(
      "void row_sum(float* out, const float* in, int rows, int cols, float scale, cudaStream_t s)");
  ASSERT_TRUE(signature) << signature.error().message;
  task.signature = *signature;
  auto const choice = plan_size_dispatch(task, {screened("wide_kernel", {{"wide", 4.0}, {"tall", 1.0}}),
                                                screened("tall_kernel", {{"wide", 1.5}, {"tall", 3.0}})});
  ASSERT_TRUE(choice.plan) << choice.reason;
  EXPECT_EQ(choice.plan->scalars, (std::vector<std::string>{"rows", "cols"}));
}

TEST_F(SizeDispatchFixture, OneKernelFastestEverywhereIsNoDispatch) {
  auto const choice = plan_size_dispatch(
      task, {screened("a", {{"wide", 2.0}, {"tall", 1.0}}), screened("b", {{"wide", 3.0}, {"tall", 2.0}})});
  EXPECT_FALSE(choice.plan);
  EXPECT_NE(choice.reason.find("one kernel (b, b-config) is the fastest at every timed size"),
            std::string::npos)
      << choice.reason;
}

TEST_F(SizeDispatchFixture, AGainBelowTheThresholdIsNoDispatch) {
  std::vector<ScreenedCandidate> const close = {screened("a", {{"wide", 2.0}, {"tall", 2.0}}),
                                                screened("b", {{"wide", 2.04}, {"tall", 1.99}})};
  auto const choice = plan_size_dispatch(task, close);
  EXPECT_FALSE(choice.plan);
  EXPECT_NE(choice.reason.find("would gain 0.3 %"), std::string::npos) << choice.reason;
  EXPECT_TRUE(plan_size_dispatch(task, close, 1.001).plan);  // the threshold is the caller's
}

TEST_F(SizeDispatchFixture, ACandidateWithoutATimingOnEveryTimedSizeIsLeftOut) {
  auto const choice = plan_size_dispatch(
      task, {screened("partial", {{"wide", 9.0}}), screened("b", {{"wide", 2.0}, {"tall", 2.0}})});
  EXPECT_FALSE(choice.plan);
  EXPECT_NE(choice.reason.find("one kernel (b,"), std::string::npos) << choice.reason;
  EXPECT_NE(
      plan_size_dispatch(task, {screened("partial", {{"wide", 9.0}})}).reason.find("no verified kernel"),
      std::string::npos);
}

TEST_F(SizeDispatchFixture, VariantsShareTheirCompilerFlags) {
  auto const choice = plan_size_dispatch(
      task, {screened("a_fast_math", {{"wide", 4.0}, {"tall", 1.0}}, {"--use_fast_math"}),
             screened("b", {{"wide", 1.0}, {"tall", 4.0}}),
             screened("c_fast_math", {{"wide", 1.0}, {"tall", 3.0}}, {"--use_fast_math"})});
  ASSERT_TRUE(choice.plan) << choice.reason;
  ASSERT_EQ(choice.plan->variants.size(), 2u);
  EXPECT_EQ(choice.plan->variants[0].strategy, "a_fast_math");
  EXPECT_EQ(choice.plan->variants[1].strategy, "c_fast_math");  // not b, which is built without the flag
  EXPECT_EQ(choice.plan->flags, std::vector<std::string>{"--use_fast_math"});
}

TEST_F(SizeDispatchFixture, CasesTheLauncherCannotTellApartShareOneKernel) {
  std::string text = kRowsTask;
  text.replace(text.find("rows = 65536\ncols = 1024"), 24, "rows = 128\ncols = 262144");
  auto parsed = parse_task(text, dir.path() / "task" / "task.toml", dir.path() / "task");
  ASSERT_TRUE(parsed) << parsed.error().message;
  auto const choice = plan_size_dispatch(*parsed, {screened("a", {{"wide", 4.0}, {"tall", 1.0}}),
                                                   screened("b", {{"wide", 1.0}, {"tall", 4.0}})});
  EXPECT_FALSE(choice.plan);
  EXPECT_NE(choice.reason.find("one set of values"), std::string::npos) << choice.reason;
}

// ---- the source ----------------------------------------------------------------------------------------

// A kernel-mode variant as the evaluator gets one: knob values as #defines, a // kopt:launch line, an
// extern "C" kernel with the entry's name, a helper whose name the other variant uses too.
std::string const kKernelVariant = R"(// kopt optimize: BLOCK=128
#define BLOCK 128
#line 1
#include <cuda_bf16.h>
// kopt:knob BLOCK = [128, 256]
// kopt:launch grid=(ceil_div(rows, BLOCK / 32)) block=(BLOCK) shared=(4 * BLOCK) args=(out, in, rows, i64(cols), f32(scale))
__device__ float helper(float x) { return x; }
extern "C" __global__ void row_sum(float* out, const float* in, int rows, long long cols, float scale) {
  extern __shared__ float partial[];
  int const row = blockIdx.x * (BLOCK / 32) + threadIdx.x / 32;
  if (row >= rows) return;
  float s = 0.0f;
  for (long long c = threadIdx.x % 32; c < cols; c += 32) s += helper(in[row * cols + c]);
  partial[threadIdx.x] = s;
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) out[row] = scale * s;
}
)";

std::string const kLauncherVariant = R"(// kopt optimize: BLOCK=256
#define BLOCK 256
#line 1
#include <cuda_bf16.h>
// kopt:knob BLOCK = [256, 512]
__device__ float helper(float x) { return x; }
__global__ void rows_kernel(float* out, const float* in, int rows, int cols, float scale) {
  int const row = blockIdx.x;
  __shared__ float s[BLOCK];
  float v = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) v += helper(in[(long long)row * cols + c]);
  s[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (int i = 0; i < BLOCK; ++i) t += s[i];
    out[row] = scale * t;
  }
}
extern "C" void row_sum(float* out, const float* in, int rows, int cols, float scale) {
  rows_kernel<<<rows, BLOCK>>>(out, in, rows, cols, scale);
}
)";

SizeDispatchPlan two_variant_plan(std::string kernel_text, std::string launcher_text) {
  SizeDispatchPlan plan;
  CandidateInput kernel;
  kernel.name = "BLOCK=128";
  kernel.source = std::move(kernel_text);
  kernel.mode = CandidateMode::kernel;
  CandidateInput launcher;
  launcher.name = "BLOCK=256";
  launcher.source = std::move(launcher_text);
  launcher.mode = CandidateMode::launcher;
  plan.variants = {{"warp_per_row", kernel, {"tall"}}, {"block_per_row", launcher, {"wide"}}};
  plan.scalars = {"rows", "cols"};
  plan.cases = {{"wide", {128, 262144}, 1}, {"tall", {65536, 1024}, 0}};
  return plan;
}

TEST_F(SizeDispatchFixture, TheDispatchIsOneLauncherThatCompilesWithEachVariantApart) {
  auto candidate = size_dispatch_candidate(task, two_variant_plan(kKernelVariant, kLauncherVariant));
  ASSERT_TRUE(candidate) << candidate.error().message;
  EXPECT_EQ(candidate->mode, CandidateMode::launcher);
  EXPECT_EQ(detect_mode(candidate->source, "row_sum"), CandidateMode::launcher);
  EXPECT_TRUE(candidate->knobs.empty());
  // The variants' annotations are plain comments now: the dispatch has no tuning space, no launch line.
  auto space = TuningSpace::parse(candidate->source);
  ASSERT_TRUE(space) << space.error().message;
  EXPECT_TRUE(space->knobs().empty());
  EXPECT_EQ(candidate->source.find("// kopt:launch"), std::string::npos);
  EXPECT_NE(candidate->source.find("#pragma pop_macro(\"BLOCK\")"), std::string::npos);

  auto compiled = test::compile_as_evaluated(task, "dispatch", candidate->source, candidate->flags);
  ASSERT_TRUE(compiled) << compiled.error().message;
  EXPECT_TRUE(compiled->ok) << compiled->diagnostics << "\n" << candidate->source;
  EXPECT_EQ(compiled->artifact.path.extension(), ".so");  // built as a launcher, by nvcc
}

// A launcher that returns cudaError_t: the dispatch returns the status of the variant it ran, the
// launcher variant's own return value included, and the trampoline's return-type check passes.
TEST_F(SizeDispatchFixture, ADispatchForALauncherThatReturnsCudaErrorReturnsTheVariantsStatus) {
  TaskSpec returning = task;
  returning.signature.returns_error = true;
  std::string launcher = kLauncherVariant;
  std::string const void_entry = "extern \"C\" void row_sum(";
  ASSERT_NE(launcher.find(void_entry), std::string::npos);
  launcher.replace(launcher.find(void_entry), void_entry.size(), "extern \"C\" cudaError_t row_sum(");
  std::string const launch = "rows_kernel<<<rows, BLOCK>>>(out, in, rows, cols, scale);\n";
  ASSERT_NE(launcher.find(launch), std::string::npos);
  launcher.insert(launcher.find(launch) + launch.size(), "  return cudaGetLastError();\n");
  auto candidate = size_dispatch_candidate(returning, two_variant_plan(kKernelVariant, launcher));
  ASSERT_TRUE(candidate) << candidate.error().message;
  EXPECT_NE(candidate->source.find("extern \"C\" cudaError_t row_sum("), std::string::npos)
      << candidate->source;
  EXPECT_NE(candidate->source.find("case 0: return kopt_variant_0::kopt_call("), std::string::npos);
  auto compiled = test::compile_as_evaluated(returning, "dispatch", candidate->source, candidate->flags);
  ASSERT_TRUE(compiled) << compiled.error().message;
  EXPECT_TRUE(compiled->ok) << compiled->diagnostics << "\n" << candidate->source;
}

// The choice of variant is host code: with launcher variants that only write a mark into `out` (a host
// pointer here, no kernel launched), the dispatch runs on this machine, without a GPU.
TEST_F(SizeDispatchFixture, ACallRunsTheVariantOfTheNearestTimedSizeCase) {
  auto const nvcc = test::nvcc_path();
  if (!nvcc) GTEST_SKIP() << "nvcc not found";
  auto const marker = [](int mark) {
    return "#define MARK " + std::to_string(mark) +
           "\nextern \"C\" void row_sum(float* out, const float* in, int rows, int cols, float scale) {\n"
           "  (void)in; (void)rows; (void)cols; (void)scale;\n  out[0] = MARK;\n}\n";
  };
  SizeDispatchPlan plan = two_variant_plan("", "");
  for (auto& v : plan.variants) v.input.mode = CandidateMode::launcher;
  plan.variants[0].input.source = marker(0);  // tall
  plan.variants[1].input.source = marker(1);  // wide
  auto candidate = size_dispatch_candidate(task, plan);
  ASSERT_TRUE(candidate) << candidate.error().message;
  std::string const main = R"(
#include <cstdio>
int main() {
  int const sizes[][2] = {{128, 262144}, {65536, 1024}, {100, 300000}, {50000, 2000}, {4096, 4096}, {64, 1048576}};
  for (auto const& s : sizes) {
    float out = -1.0f;
    row_sum(&out, nullptr, s[0], s[1], 1.0f);
    std::printf("%d %d %d\n", s[0], s[1], static_cast<int>(out));
  }
  return 0;
}
)";
  fs::path const source = dir.path() / "dispatch.cu";
  std::ofstream(source) << candidate->source << main;
  fs::path const exe = dir.path() / "dispatch";
  std::string const build =
      nvcc->string() + " -std=c++17 -o " + exe.string() + " " + source.string() + " 2>&1";
  ASSERT_EQ(std::system(build.c_str()), 0) << build << "\n" << candidate->source;
  std::FILE* pipe = ::popen(exe.string().c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  std::array<char, 256> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) output += buffer.data();
  ASSERT_EQ(::pclose(pipe), 0) << output;
  // The timed cases run their own variant; other sizes the variant of the nearest case in log2 space.
  EXPECT_EQ(output, "128 262144 1\n65536 1024 0\n100 300000 1\n50000 2000 0\n4096 4096 0\n64 1048576 1\n");
}

TEST_F(SizeDispatchFixture, AVariantTheDispatchCannotHoldIsAnErrorNamingIt) {
  auto block = size_dispatch_candidate(
      task, two_variant_plan(kKernelVariant,
                             "extern \"C\" {\nvoid row_sum(float*, const float*, int, int, float);\n}\n"));
  ASSERT_FALSE(block);
  EXPECT_NE(block.error().message.find("dispatch variant 1 (block_per_row, BLOCK=256)"), std::string::npos)
      << block.error().message;
  EXPECT_NE(block.error().message.find("extern \"C\" { ... } block"), std::string::npos);

  std::string reads_nnz = kKernelVariant;
  reads_nnz.replace(reads_nnz.find("ceil_div(rows, BLOCK / 32)"), 26, "ceil_div(nnz, 32)");
  auto unknown = size_dispatch_candidate(task, two_variant_plan(reads_nnz, kLauncherVariant));
  ASSERT_FALSE(unknown);
  EXPECT_NE(
      unknown.error().message.find("dispatch variant 0 (warp_per_row, BLOCK=128): its launch reads 'nnz'"),
      std::string::npos)
      << unknown.error().message;
}

// The plan's dispatch is a launcher that nvcc builds, as the evaluator builds it.
void expect_dispatch_builds(TaskSpec const& task, SizeDispatchPlan const& plan) {
  auto dispatch = size_dispatch_candidate(task, plan);
  ASSERT_TRUE(dispatch) << dispatch.error().message;
  auto compiled = test::compile_as_evaluated(task, "dispatch", dispatch->source, dispatch->flags);
  ASSERT_TRUE(compiled) << compiled.error().message;
  EXPECT_TRUE(compiled->ok) << compiled->diagnostics;
  EXPECT_EQ(compiled->artifact.path.extension(), ".so");  // built as a launcher
}

// The library's two row-sum kernels, each best at some sizes of the suite's row_sum-bf16 (docs/bench.md), in
// one launcher that nvcc builds.
TEST(SizeDispatchLibrary, TheLibrarysRowSumKernelsCompileAsOneDispatch) {
  fs::path const root = fs::path(KOPT_SOURCE_DIR);
  auto library = load_strategy_library(root / "strategies");
  ASSERT_TRUE(library) << library.error().message;
  auto task = load_task(root / "suites" / "algebra" / "row_sum-bf16");
  ASSERT_TRUE(task) << task.error().message;
  auto plan = test::row_sum_dispatch_plan(*library, *task, true);
  ASSERT_TRUE(plan) << plan.error().message;
  expect_dispatch_builds(*task, *plan);
}

// ---- the reference as a variant ------------------------------------------------------------------------

// A reference as users write them: a launcher in reference.cu that includes a shared header (with #pragma
// once) which includes another, also included directly.
void write_reference_with_headers(fs::path const& task_dir) {
  test::write_file(task_dir / "reference.cu", R"(// one thread per row
#include "../common/rows.cuh"
#include "../common/inner.cuh"
extern "C" void row_sum(float* out, const float* in, int rows, int cols, float scale) {
  rows_reference<<<(rows + 127) / 128, 128>>>(out, in, rows, cols, scale);
}
)");
  test::write_file(task_dir.parent_path() / "common" / "rows.cuh", R"(#pragma once
#include <cuda_runtime.h>
#include "inner.cuh"
__global__ void rows_reference(float* out, const float* in, int rows, int cols, float scale) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += identity(in[(long long)row * cols + c]);
  out[row] = scale * s;
}
)");
  test::write_file(task_dir.parent_path() / "common" / "inner.cuh",
                   "#pragma once\n__device__ inline float identity(float x) { return x; }\n");
}

TEST_F(SizeDispatchFixture, TheReferenceIsAVariantWithItsHeadersInlined) {
  write_reference_with_headers(dir.path() / "task");
  auto reference = reference_variant(task);
  ASSERT_TRUE(reference) << reference.error().message;
  EXPECT_EQ(reference->strategy, "reference");
  EXPECT_EQ(reference->input.mode, CandidateMode::launcher);
  EXPECT_TRUE(reference->any_flags);
  EXPECT_EQ(reference->speedups, (std::map<std::string, double, std::less<>>{{"tall", 1.0}, {"wide", 1.0}}));
  std::string const& text = reference->input.source;
  EXPECT_EQ(text.find("#include \""), std::string::npos) << text;
  EXPECT_EQ(text.find("#pragma once"), std::string::npos) << text;
  EXPECT_NE(text.find("#include <cuda_runtime.h>"), std::string::npos) << text;
  auto const identity = text.find("float identity");
  ASSERT_NE(identity, std::string::npos) << text;
  EXPECT_EQ(text.find("float identity", identity + 1), std::string::npos) << "inner.cuh inlined twice:\n"
                                                                          << text;
  EXPECT_LT(identity, text.find("rows_reference(float*"));  // in include order
}

TEST_F(SizeDispatchFixture, AReferenceThatCannotBeAVariantSaysWhy) {
  write_reference_with_headers(dir.path() / "task");
  TaskSpec torch = task;
  torch.reference.kind = ReferenceKind::torch;
  auto refused = reference_variant(torch);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("PyTorch"), std::string::npos) << refused.error().message;
  TaskSpec linked = task;
  linked.reference.libraries = {"cublas"};
  refused = reference_variant(linked);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("links cublas"), std::string::npos) << refused.error().message;
  fs::remove(dir.path() / "common" / "inner.cuh");
  refused = reference_variant(task);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("rows.cuh:3: #include \"inner.cuh\" cannot be read"),
            std::string::npos)
      << "the include that fails is named with the file and line that include it: "
      << refused.error().message;
}

// A size case where no kernel beats the reference keeps the reference, which joins the kernels' flag set;
// the dispatch of a kernel and the reference compiles.
TEST_F(SizeDispatchFixture, TheReferenceServesTheSizesNoKernelBeats) {
  write_reference_with_headers(dir.path() / "task");
  auto reference = reference_variant(task);
  ASSERT_TRUE(reference) << reference.error().message;
  auto const choice = plan_size_dispatch(
      task, {screened("tall_loser", {{"wide", 3.0}, {"tall", 0.8}}, {"-lineinfo"}), *reference});
  ASSERT_TRUE(choice.plan) << choice.reason;
  SizeDispatchPlan plan = *choice.plan;
  ASSERT_EQ(plan.variants.size(), 2u);
  EXPECT_EQ(plan.variants[0].strategy, "tall_loser");
  EXPECT_EQ(plan.variants[0].sizes, std::vector<std::string>{"wide"});
  EXPECT_EQ(plan.variants[1].strategy, "reference");
  EXPECT_EQ(plan.variants[1].sizes, std::vector<std::string>{"tall"});
  EXPECT_EQ(plan.flags, std::vector<std::string>{"-lineinfo"});
  EXPECT_NEAR(plan.predicted_speedup, std::sqrt(3.0), 1e-12);
  if (!test::nvcc_path()) GTEST_SKIP() << "nvcc not found";
  plan.variants[0].input = CandidateInput{"BLOCK=256", kLauncherVariant, {}, {}, CandidateMode::launcher};
  expect_dispatch_builds(task, plan);
}

// The reference does not win a size where every kernel beats it.
TEST_F(SizeDispatchFixture, AReferenceEveryKernelBeatsIsNoVariant) {
  write_reference_with_headers(dir.path() / "task");
  auto reference = reference_variant(task);
  ASSERT_TRUE(reference) << reference.error().message;
  auto const choice = plan_size_dispatch(task, {screened("a", {{"wide", 4.0}, {"tall", 1.2}}),
                                                screened("b", {{"wide", 1.5}, {"tall", 3.0}}), *reference});
  ASSERT_TRUE(choice.plan) << choice.reason;
  for (auto const& variant : choice.plan->variants) EXPECT_NE(variant.strategy, "reference");
}

// The suite's own case (docs/bench.md, 2026-12-06: stencil3d_weighted-bf16's medium size ran slower than its
// reference): the library's kernel and the suite's reference, which includes ../stencil3d-common.cuh, build
// as one dispatch.
TEST(SizeDispatchLibrary, TheSuitesReferenceAndTheLibrarysKernelCompileAsOneDispatch) {
  if (!test::nvcc_path()) GTEST_SKIP() << "nvcc not found";
  fs::path const root = fs::path(KOPT_SOURCE_DIR);
  auto library = load_strategy_library(root / "strategies");
  ASSERT_TRUE(library) << library.error().message;
  auto task = load_task(root / "suites" / "scientific" / "stencil3d_weighted-bf16");
  ASSERT_TRUE(task) << task.error().message;
  auto const* strategy = library->find("stencil3d_zstream_weighted");
  ASSERT_NE(strategy, nullptr);
  auto text = instantiate_strategy(*library, *strategy, *task, 90);
  ASSERT_TRUE(text) << text.error().message;
  auto kernel = test::first_configuration(*task, *text);
  ASSERT_TRUE(kernel) << kernel.error().message;
  auto reference = reference_variant(*task);
  ASSERT_TRUE(reference) << reference.error().message;
  std::vector<ScreenedCandidate> screened_kernels = {{"stencil3d_zstream_weighted", *kernel, {}}, *reference};
  for (SizeCase const& size : task->sizes) {
    if (size.verify_only) continue;
    screened_kernels[0].speedups[size.name] = size.name == "medium" ? 0.87 : 1.5;
  }
  auto const choice = plan_size_dispatch(*task, screened_kernels);
  ASSERT_TRUE(choice.plan) << choice.reason;
  ASSERT_EQ(choice.plan->variants.size(), 2u);
  EXPECT_EQ(choice.plan->variants[0].strategy, "reference");  // the variants follow the size cases' order
  EXPECT_EQ(choice.plan->variants[0].sizes, std::vector<std::string>{"medium"});
  expect_dispatch_builds(*task, *choice.plan);
}

// Variants that carry generated host code of their own (kernel-mode strategies bound so that they add
// into the task's y: each has its helpers, its add-into kernel and a renamed kernel) still compose into
// one launcher that nvcc builds.
TEST(SizeDispatchLibrary, VariantsWithGeneratedHostCodeComposeToo) {
  fs::path const root = fs::path(KOPT_SOURCE_DIR);
  auto library = load_strategy_library(root / "strategies");
  ASSERT_TRUE(library) << library.error().message;
  auto task = load_task(root / "tests" / "propose" / "foreign" / "gemv-accumulates_y_plus_ax");
  ASSERT_TRUE(task) << task.error().message;
  SizeDispatchPlan plan;
  for (std::string const name : {"warp_per_row_gemv", "block_per_row_gemv"}) {
    auto const* strategy = library->find(name);
    ASSERT_NE(strategy, nullptr) << name;
    auto const applicability = check_applicability(*strategy, *task, 90);
    ASSERT_TRUE(applicability.applies) << applicability.reason;
    auto const accumulating = std::find_if(
        applicability.bindings.begin(), applicability.bindings.end(), [](StrategyBinding const& b) {
          return std::any_of(b.roles.begin(), b.roles.end(),
                             [](RoleBinding const& r) { return r.accumulated; });
        });
    ASSERT_NE(accumulating, applicability.bindings.end()) << name;
    auto text = instantiate_strategy(*library, *strategy, *task, 90, &*accumulating);
    ASSERT_TRUE(text) << text.error().message;
    auto input = test::first_configuration(*task, *text);
    ASSERT_TRUE(input) << input.error().message;
    EXPECT_EQ(input->mode, CandidateMode::launcher) << name;
    plan.variants.push_back({name, *input, {}});
  }
  plan.variants[0].sizes = {"odd"};
  plan.variants[1].sizes = {"small"};
  plan.scalars = {"m", "n"};
  plan.cases = {{"odd", {333, 517}, 0}, {"small", {512, 384}, 1}};
  expect_dispatch_builds(*task, plan);
}

// ---- the proposer's run ----------------------------------------------------------------------------------

// by_block wins the small case (4x at BLOCK=256), by_tile the large one (5x at TILE=4) and the screen (its
// geomean is the higher); a kernel without knobs is the dispatch, which gets each case's best.
FakeResult per_size(std::map<std::string, std::string, std::less<>> const& knobs) {
  std::array<double, 2> speedup{4.0, 5.0};
  if (auto it = knobs.find("BLOCK"); it != knobs.end())
    speedup = it->second == "256" ? std::array<double, 2>{4.0, 1.2} : std::array<double, 2>{3.0, 1.0};
  if (auto it = knobs.find("TILE"); it != knobs.end())
    speedup = it->second == "4" ? std::array<double, 2>{1.5, 5.0} : std::array<double, 2>{1.5, 4.0};
  return FakeResult{CandidateStatus::ok, "", {100.0 / speedup[0], 100.0 / speedup[1]}, {100.0, 100.0}};
}

struct DispatchRunFixture : ::testing::Test {
  void SetUp() override {
    test::write_two_strategy_library(dir.path() / "lib");
    test::write_file(dir.path() / "task" / "reference.cu", "\n");
    std::string text = test::add_task_toml("n");
    text += "[[sizes]]\nname = \"large\"\nn = 1048576\n";
    auto parsed = parse_task(text, dir.path() / "task" / "task.toml", dir.path() / "task");
    ASSERT_TRUE(parsed) << parsed.error().message;
    task = *parsed;
    auto loaded = load_strategy_library(dir.path() / "lib");
    ASSERT_TRUE(loaded) << loaded.error().message;
    library = *loaded;
  }
  // The proposer with a budget of 8, exhaustive search, on `fake` and a fresh store.
  Result<ProposeResult> propose(FakeCandidateEvaluator& fake, bool size_dispatch = true) {
    auto opened = Store::open(dir.path() / ("kopt" + std::to_string(++stores) + ".db"));
    if (!opened) return opened.error();
    store.emplace(std::move(*opened));
    ProposeOptions options;
    options.budget = 8;
    options.search = "exhaustive";
    options.size_dispatch = size_dispatch;
    return propose_and_tune(library, task, options, fake, *store);
  }
  test::TempDir dir;
  TaskSpec task;
  StrategyLibrary library;
  std::optional<Store> store;
  int stores = 0;
};

TEST_F(DispatchRunFixture, KernelsThatWinAtDifferentSizesBecomeOneConfirmedDispatch) {
  FakeCandidateEvaluator fake(per_size);
  auto result = propose(fake);
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->runs.size(), 4u);  // two screens, the deepening, the dispatch
  StrategyRun const& dispatch = result->runs.back();
  EXPECT_EQ(dispatch.phase, "dispatch");
  EXPECT_EQ(dispatch.strategy, "size dispatch (by_block | by_tile)");
  EXPECT_EQ(dispatch.result.points, 1u);
  ASSERT_TRUE(result->best_strategy);
  EXPECT_EQ(*result->best_strategy, dispatch.strategy);
  EXPECT_EQ(result->best_run, dispatch.result.run);
  ASSERT_TRUE(result->confirmed);
  EXPECT_NEAR(*result->confirmed->geomean_speedup, std::sqrt(20.0), 1e-9);
  EXPECT_EQ(fake.confirm_calls(), 2u);  // the deepened strategy's best, then the dispatch
  EXPECT_NE(result->dispatch.find("by_block BLOCK=256 for small; by_tile TILE=4 for large"),
            std::string::npos)
      << result->dispatch;
  EXPECT_NE(result->dispatch.find("the best kernel"), std::string::npos) << result->dispatch;
  // What export writes is the dispatch: the session's best confirmed candidate.
  auto best = store->best_verified_candidate(result->session);
  ASSERT_TRUE(best && *best);
  EXPECT_EQ((*best)->candidate.run, dispatch.result.run);
  EXPECT_NE((*best)->candidate.candidate.source.find("kopt size dispatch for task add"), std::string::npos);
  auto stored = store->load_session(result->session);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->runs.size(), 4u);
}

TEST_F(DispatchRunFixture, ADispatchThatFailsVerificationLeavesTheSingleBest) {
  FakeCandidateEvaluator fake(per_size);
  fake.set_source_verdict([](CandidateInput const& c) -> std::optional<CandidateStatus> {
    if (c.source.find("kopt size dispatch") != std::string::npos) return CandidateStatus::wrong_output;
    return std::nullopt;
  });
  auto result = propose(fake);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->runs.back().phase, "dispatch");
  ASSERT_TRUE(result->best_strategy);
  EXPECT_EQ(*result->best_strategy, "by_tile");
  EXPECT_EQ(fake.confirm_calls(), 1u);  // an unverified dispatch is not confirmed
  EXPECT_NE(result->dispatch.find("not verified"), std::string::npos) << result->dispatch;
}

// by_block and by_tile both lose the small case to the reference (0.8x and 0.5x) and by_tile wins the large
// one (5x): the reference serves the small case.
FakeResult reference_wins_small(std::map<std::string, std::string, std::less<>> const& knobs) {
  std::array<double, 2> speedup{4.0, 5.0};  // the dispatch itself (no knobs)
  if (knobs.contains("BLOCK")) speedup = {0.8, 1.2};
  if (auto it = knobs.find("TILE"); it != knobs.end()) speedup = {0.5, it->second == "4" ? 5.0 : 4.0};
  return FakeResult{CandidateStatus::ok, "", {100.0 / speedup[0], 100.0 / speedup[1]}, {100.0, 100.0}};
}

TEST_F(DispatchRunFixture, TheReferenceServesTheSizeNoKernelBeats) {
  test::write_file(dir.path() / "task" / "reference.cu",
                   "__global__ void add_kernel(float* c, const float* a, const float* b, int n) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) c[i] = a[i] + b[i];\n}\n"
                   "extern \"C\" void add(float* c, const float* a, const float* b, int n) {\n"
                   "  add_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n);\n}\n");
  FakeCandidateEvaluator fake(reference_wins_small);
  auto result = propose(fake);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->runs.back().strategy, "size dispatch (reference | by_tile)");
  EXPECT_NE(result->dispatch.find("reference reference for small; by_tile TILE=4 for large"),
            std::string::npos)
      << result->dispatch;
}

// A reference whose text cannot be a variant (an extern "C" { } block) is left out and the plan made again.
TEST_F(DispatchRunFixture, AReferenceTheDispatchCannotHoldIsLeftOut) {
  test::write_file(dir.path() / "task" / "reference.cu",
                   "extern \"C\" {\n__device__ float twice(float v) { return 2.0f * v; }\n}\n"
                   "__global__ void add_kernel(float* c, const float* a, const float* b, int n) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) c[i] = a[i] + b[i];\n}\n"
                   "extern \"C\" void add(float* c, const float* a, const float* b, int n) {\n"
                   "  add_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n);\n}\n");
  ASSERT_TRUE(reference_variant(task))
      << "the reference is a launcher: only the dispatch's source refuses it";
  FakeCandidateEvaluator fake(reference_wins_small);
  auto result = propose(fake);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->runs.back().strategy, "size dispatch (by_block | by_tile)") << result->dispatch;
}

TEST_F(DispatchRunFixture, TurnedOffThereIsNoDispatchRun) {
  FakeCandidateEvaluator fake(per_size);
  auto result = propose(fake, false);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->runs.size(), 3u);
  EXPECT_TRUE(result->dispatch.empty());
  EXPECT_EQ(*result->best_strategy, "by_tile");
}

}  // namespace size_dispatch_test
}  // namespace kopt
