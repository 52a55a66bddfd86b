// plan_candidate and artifact_ref: from a candidate's source to a compile request and a worker artifact.
#include "eval/artifact_requests.hpp"

#include <gtest/gtest.h>

#include "eval/trampoline.hpp"
#include "eval_test_support.hpp"

namespace kopt {
namespace artifact_requests_test {

using eval_test::vector_add_task;

constexpr char kKernelSource[] = R"CU(
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
)CU";

constexpr char kLauncherSource[] = R"CU(
__global__ void add_kernel(float* c, const float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  add_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n);
}
)CU";

CandidateSource source_named(std::string const& name, std::string text) {
  CandidateSource source;
  source.name = name;
  source.path = "/candidates/" + name;
  source.source = std::move(text);
  return source;
}

TEST(PlanCandidate, KernelSourceGetsAKernelRequestWithTheTaskGeometry) {
  TaskSpec const task = vector_add_task();
  CandidatePlan const plan = plan_candidate(task, source_named("k.cu", kKernelSource), std::nullopt);
  EXPECT_EQ(plan.name, "k.cu");
  EXPECT_EQ(plan.mode, CandidateMode::kernel);
  ASSERT_TRUE(plan.request) << plan.failure;
  EXPECT_TRUE(plan.failure.empty());
  EXPECT_EQ(plan.request->mode, CandidateMode::kernel);
  EXPECT_EQ(plan.request->entry, "vector_add");
  EXPECT_EQ(plan.request->source, kKernelSource);
  EXPECT_EQ(plan.request->origin, "/candidates/k.cu");
  ASSERT_TRUE(plan.launch);
  ASSERT_EQ(plan.launch->grid.size(), 1u);
  EXPECT_EQ(plan.launch->grid[0].evaluate({{"n", 1000}}).value(), 4);  // ceil_div(n, 256)

  Artifact artifact;
  artifact.mode = CandidateMode::kernel;
  artifact.path = "/cache/abc.cubin";
  artifact.symbol = "vector_add";
  worker::ArtifactRef const ref = artifact_ref(task, plan, artifact);
  EXPECT_EQ(ref.mode, "kernel");
  EXPECT_EQ(ref.path, "/cache/abc.cubin");
  EXPECT_EQ(ref.symbol, "vector_add");
  ASSERT_EQ(ref.grid.size(), 1u);
  ASSERT_EQ(ref.block.size(), 1u);
  EXPECT_EQ(ref.block[0], "256");
  EXPECT_EQ(ref.shared_bytes, "0");
  EXPECT_EQ(ref.param_sizes, (std::vector<int>{8, 8, 8, 4}));
}

TEST(PlanCandidate, LaunchAnnotationOverridesTheGeometry) {
  TaskSpec const task = vector_add_task();
  std::string const text =
      std::string("// kopt:launch grid=(ceil_div(n,1024)) block=(1024)\n") + kKernelSource;
  CandidatePlan const plan = plan_candidate(task, source_named("k.cu", text), std::nullopt);
  ASSERT_TRUE(plan.request) << plan.failure;
  ASSERT_TRUE(plan.launch);
  EXPECT_EQ(plan.launch->grid[0].evaluate({{"n", 4096}}).value(), 4);
  EXPECT_EQ(plan.launch->block[0].evaluate({}).value(), 1024);
}

TEST(PlanCandidate, BadLaunchAnnotationFailsBeforeCompiling) {
  TaskSpec const task = vector_add_task();
  std::string const text =
      std::string("// kopt:launch grid=(ceil_div(n,256)) blocks=(128)\n") + kKernelSource;
  CandidatePlan const plan = plan_candidate(task, source_named("k.cu", text), std::nullopt);
  EXPECT_FALSE(plan.request);
  EXPECT_EQ(plan.failure_status, CandidateStatus::compile_error);
  EXPECT_NE(plan.failure.find("line 1"), std::string::npos) << plan.failure;
  EXPECT_NE(plan.failure.find("blocks"), std::string::npos) << plan.failure;
}

// A kernel whose parameters are not the launcher's: reordered, one size computed, one constant added.
constexpr char kReorderedKernel[] = R"CU(
// kopt:launch grid=(ceil_div(n, 256)) block=(256) kernel=add_scaled args=(a, b, c, i64(n), f32(2.0))
extern "C" __global__ void add_scaled(const float* a, const float* b, float* c, long long n, float s) {
  long long i = blockIdx.x * 256ll + threadIdx.x;
  if (i < n) c[i] = s * (a[i] + b[i]) / s;
}
)CU";

TEST(PlanCandidate, LaunchArgsMapTheKernelsParametersToTheTasks) {
  TaskSpec const task = vector_add_task();  // vector_add(float* c, const float* a, const float* b, int n)
  CandidatePlan const plan = plan_candidate(task, source_named("k.cu", kReorderedKernel), std::nullopt);
  ASSERT_TRUE(plan.request) << plan.failure;
  EXPECT_EQ(plan.request->entry, "add_scaled");
  Artifact artifact;
  artifact.mode = CandidateMode::kernel;
  artifact.path = "/cache/abc.cubin";
  artifact.symbol = "add_scaled";
  worker::ArtifactRef const ref = artifact_ref(task, plan, artifact);
  ASSERT_EQ(ref.arguments.size(), 5u);
  EXPECT_EQ(ref.arguments[0].parameter, 1);  // a
  EXPECT_EQ(ref.arguments[1].parameter, 2);  // b
  EXPECT_EQ(ref.arguments[2].parameter, 0);  // c
  EXPECT_EQ(ref.arguments[3].parameter, -1);
  EXPECT_EQ(ref.arguments[3].type, "i64");
  EXPECT_EQ(ref.arguments[3].value, "n");
  EXPECT_EQ(ref.arguments[4].type, "f32");
  EXPECT_EQ(ref.arguments[4].value, "2");
  EXPECT_EQ(ref.param_sizes, (std::vector<int>{8, 8, 8, 8, 4}));  // the kernel's, not the launcher's
}

// A task's double scalar given to a kernel's float parameter: `f32(alpha)` passes the parameter's index
// with type f32 (the worker rounds it for each call), and the kernel's parameter is 4 bytes. An integer
// or pointer parameter cannot be converted.
TEST(PlanCandidate, ADoubleParameterIsRoundedToTheKernelsFloat) {
  TaskSpec task = vector_add_task();
  task.signature.params.push_back(Param{"alpha", "double", false, DType::f64, false, {}});
  std::string const source =
      "// kopt:launch args=(c, a, b, n, f32(alpha)) kernel=scaled_add\n"
      "extern \"C\" __global__ void scaled_add(float* c, const float* a, const float* b, "
      "int n, float s) {}\n";
  CandidatePlan const plan = plan_candidate(task, source_named("k.cu", source), std::nullopt);
  ASSERT_TRUE(plan.request) << plan.failure;
  Artifact artifact;
  artifact.mode = CandidateMode::kernel;
  artifact.path = "/cache/abc.cubin";
  artifact.symbol = "scaled_add";
  worker::ArtifactRef const ref = artifact_ref(task, plan, artifact);
  ASSERT_EQ(ref.arguments.size(), 5u);
  EXPECT_EQ(ref.arguments[3].parameter, 3);
  EXPECT_TRUE(ref.arguments[3].type.empty());
  EXPECT_EQ(ref.arguments[4].parameter, 4);
  EXPECT_EQ(ref.arguments[4].type, "f32");
  EXPECT_EQ(ref.param_sizes, (std::vector<int>{8, 8, 8, 4, 4}));

  std::string const wrong =
      "// kopt:launch args=(c, a, b, f32(n)) kernel=scaled_add\n" + source.substr(source.find('\n') + 1);
  CandidatePlan const refused = plan_candidate(task, source_named("k.cu", wrong), std::nullopt);
  EXPECT_FALSE(refused.request);
  EXPECT_NE(refused.failure.find("'n' is not a double scalar of vector_add"), std::string::npos)
      << refused.failure;
}

TEST(PlanCandidate, LaunchArgsThatNameNoParameterFailBeforeCompiling) {
  TaskSpec const task = vector_add_task();
  std::string const unknown = "// kopt:launch args=(c, a, d, n)\n" + std::string(kKernelSource);
  CandidatePlan const plan = plan_candidate(task, source_named("k.cu", unknown), std::nullopt);
  EXPECT_FALSE(plan.request);
  EXPECT_EQ(plan.failure_status, CandidateStatus::compile_error);
  EXPECT_NE(plan.failure.find("'d' is not a parameter of vector_add (its parameters: c, a, b, n)"),
            std::string::npos)
      << plan.failure;

  std::string const pointer_in_size =
      "// kopt:launch args=(c, a, b, i32(a + 1))\n" + std::string(kKernelSource);
  CandidatePlan const sized = plan_candidate(task, source_named("k.cu", pointer_in_size), std::nullopt);
  EXPECT_FALSE(sized.request);
  EXPECT_NE(sized.failure.find("not an integer scalar"), std::string::npos) << sized.failure;
}

TEST(PlanCandidate, KernelSourceForATaskWithoutLaunchIsALoadError) {
  TaskSpec task = vector_add_task();
  task.launch.reset();
  CandidatePlan const plan = plan_candidate(task, source_named("k.cu", kKernelSource), std::nullopt);
  EXPECT_EQ(plan.mode, CandidateMode::kernel);
  EXPECT_FALSE(plan.request);
  EXPECT_EQ(plan.failure_status, CandidateStatus::load_error);
  EXPECT_NE(plan.failure.find("[launch]"), std::string::npos) << plan.failure;
}

TEST(PlanCandidate, NeitherLauncherNorKernelIsACompileErrorNamingTheEntry) {
  TaskSpec task = vector_add_task();
  CandidatePlan const plan = plan_candidate(
      task, source_named("x.cu", "__global__ void other(float* c) { c[0] = 1.0f; }\n"), std::nullopt);
  EXPECT_FALSE(plan.request);
  EXPECT_EQ(plan.failure_status, CandidateStatus::compile_error);
  EXPECT_NE(plan.failure.find("'vector_add'"), std::string::npos) << plan.failure;

  task.launch->kernel = "vector_add_kernel";
  CandidatePlan const named = plan_candidate(task, source_named("x.cu", "int nothing_here;\n"), std::nullopt);
  EXPECT_FALSE(named.request);
  EXPECT_NE(named.failure.find("'vector_add'"), std::string::npos) << named.failure;
  EXPECT_NE(named.failure.find("'vector_add_kernel'"), std::string::npos) << named.failure;
}

TEST(PlanCandidate, KernelNamedByTheLaunchSectionIsFound) {
  TaskSpec task = vector_add_task();
  task.launch->kernel = "add_kernel";
  std::string const text =
      "__global__ void add_kernel(float* c, const float* a, const float* b, int n) { c[0] = a[0] + b[0]; }\n";
  CandidatePlan const plan = plan_candidate(task, source_named("k.cu", text), std::nullopt);
  ASSERT_TRUE(plan.request) << plan.failure;
  EXPECT_EQ(plan.mode, CandidateMode::kernel);
  EXPECT_EQ(plan.request->entry, "add_kernel");
}

// A launcher that takes the caller's stream: a kernel takes the other parameters in order (kopt launches it
// on its stream), and the trampoline checks that the launcher's parameter is a cudaStream_t.
TEST(PlanCandidate, AStreamParameterIsNoKernelArgumentAndTheTrampolineChecksIt) {
  TaskSpec task = vector_add_task();
  auto signature =
      parse_signature("void vector_add(float* c, const float* a, const float* b, int n, cudaStream_t s)");
  ASSERT_TRUE(signature) << signature.error().message;
  task.signature = *signature;
  CandidatePlan const plan = plan_candidate(task, source_named("k.cu", kKernelSource), std::nullopt);
  ASSERT_TRUE(plan.request) << plan.failure;
  Artifact artifact;
  artifact.mode = CandidateMode::kernel;
  artifact.path = "/cache/abc.cubin";
  artifact.symbol = "vector_add";
  worker::ArtifactRef const ref = artifact_ref(task, plan, artifact);
  ASSERT_EQ(ref.arguments.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(ref.arguments[static_cast<std::size_t>(i)].parameter, i);
    EXPECT_TRUE(ref.arguments[static_cast<std::size_t>(i)].type.empty());
  }
  EXPECT_EQ(ref.param_sizes, (std::vector<int>{8, 8, 8, 4}));
  std::string const trampoline = trampoline_source(task.signature);
  EXPECT_NE(trampoline.find("is_stream<4>(&vector_add)"), std::string::npos) << trampoline;
  EXPECT_NE(trampoline.find("must be a cudaStream_t"), std::string::npos) << trampoline;
  EXPECT_NE(trampoline.find("returns_void(&vector_add)"), std::string::npos) << trampoline;
}

// A launcher that returns cudaError_t: the trampoline checks the return type and returns the status, which
// the worker takes as the call's error (a launcher returning cudaGetLastError() has cleared it).
TEST(PlanCandidate, TheTrampolineReturnsALaunchersStatus) {
  auto signature = parse_signature("cudaError_t vector_add(float* c, const float* a, const float* b, int n)");
  ASSERT_TRUE(signature) << signature.error().message;
  std::string const trampoline = trampoline_source(*signature);
  EXPECT_NE(trampoline.find("extern \"C\" int kopt_trampoline_vector_add(void** a)"), std::string::npos);
  EXPECT_NE(trampoline.find("returns_error(&vector_add)"), std::string::npos) << trampoline;
  EXPECT_NE(trampoline.find("return kopt_trampoline_detail::call(&vector_add, a);"), std::string::npos);
}

TEST(PlanCandidate, LauncherSourceGetsTheTrampolineAppended) {
  TaskSpec const task = vector_add_task();
  CandidatePlan const plan = plan_candidate(task, source_named("l.cu", kLauncherSource), std::nullopt);
  EXPECT_EQ(plan.mode, CandidateMode::launcher);
  ASSERT_TRUE(plan.request) << plan.failure;
  EXPECT_EQ(plan.request->mode, CandidateMode::launcher);
  EXPECT_EQ(plan.request->entry, "kopt_trampoline_vector_add");
  EXPECT_EQ(plan.request->source.rfind(kLauncherSource, 0), 0u);
  EXPECT_NE(plan.request->source.find(trampoline_source(task.signature)), std::string::npos);
  ASSERT_EQ(plan.request->include_dirs.size(), 1u);
  EXPECT_EQ(plan.request->include_dirs[0], task.dir);

  Artifact artifact;
  artifact.mode = CandidateMode::launcher;
  artifact.path = "/cache/abc.so";
  artifact.symbol = "kopt_trampoline_vector_add";
  worker::ArtifactRef const ref = artifact_ref(task, plan, artifact);
  EXPECT_EQ(ref.mode, "launcher");
  EXPECT_EQ(ref.path, "/cache/abc.so");
  EXPECT_EQ(ref.symbol, "kopt_trampoline_vector_add");
  EXPECT_TRUE(ref.grid.empty());
  EXPECT_TRUE(ref.param_sizes.empty());
}

TEST(PlanCandidate, ExplicitModeIsUsed) {
  TaskSpec const task = vector_add_task();
  CandidatePlan const plan =
      plan_candidate(task, source_named("l.cu", kLauncherSource), CandidateMode::launcher);
  EXPECT_EQ(plan.mode, CandidateMode::launcher);
  ASSERT_TRUE(plan.request);
  EXPECT_EQ(plan.request->mode, CandidateMode::launcher);
}

TEST(PlanCandidate, ReadsTheFileWhenNoTextIsGivenAndNamesAMissingOne) {
  TaskSpec const task = vector_add_task();
  CandidateSource from_file;
  from_file.path = task.dir / "reference.cu";
  CandidatePlan const plan = plan_candidate(task, from_file, std::nullopt);
  EXPECT_EQ(plan.name, "reference.cu");
  ASSERT_TRUE(plan.request) << plan.failure;
  EXPECT_EQ(plan.mode, CandidateMode::launcher);

  CandidateSource missing;
  missing.path = "/nonexistent/cand.cu";
  CandidatePlan const failed = plan_candidate(task, missing, std::nullopt);
  EXPECT_FALSE(failed.request);
  EXPECT_NE(failed.failure.find("/nonexistent/cand.cu"), std::string::npos) << failed.failure;
}

}  // namespace artifact_requests_test
}  // namespace kopt
