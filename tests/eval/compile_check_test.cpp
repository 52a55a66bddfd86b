// Compile-only checks: occupancy from static resources against the architecture's limits, the static
// findings, and check_compiles on the examples' tasks with real NVRTC and nvcc builds (no GPU needed).
#include "kopt/compile_check.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "eval_test_support.hpp"

namespace kopt {
namespace compile_check_test {

namespace fs = std::filesystem;

ResourceUsage usage(int registers, int static_shared = 0, int stack = 0, int spills = 0) {
  ResourceUsage r;
  r.registers = registers;
  r.static_shared_bytes = static_shared;
  r.stack_bytes = stack;
  r.spill_stores_bytes = spills;
  r.spill_loads_bytes = spills;
  return r;
}

TEST(Occupancy, FullOccupancyOnSm90IsLimitedByWarpsAndRegistersTogether) {
  auto const o = estimate_occupancy("sm_90", usage(32), 256, 0);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->warps_per_block, 8);
  EXPECT_EQ(o->limits.at("registers"), 8);  // 32 regs: 1024 per warp, 16 warps per sub-partition
  EXPECT_EQ(o->limits.at("warps"), 8);
  EXPECT_EQ(o->limits.at("blocks"), 32);
  EXPECT_EQ(o->limits.at("shared_mem"), 228);  // the 1 KB reserved per block only
  EXPECT_EQ(o->blocks_per_sm, 8);
  EXPECT_EQ(o->warps_per_sm, 64);
  EXPECT_DOUBLE_EQ(o->occupancy_pct, 100.0);
  EXPECT_EQ(o->limited_by, (std::vector<std::string>{"registers", "warps"}));
  EXPECT_TRUE(o->problem.empty());
}

TEST(Occupancy, RegistersLimitOccupancy) {
  auto const o = estimate_occupancy("sm_90", usage(128), 256, 0);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->limits.at("registers"), 2);  // 4096 per warp: 4 warps per sub-partition, 16 per SM
  EXPECT_EQ(o->blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(o->occupancy_pct, 25.0);
  EXPECT_EQ(o->limited_by, std::vector<std::string>{"registers"});
  // Registers are allocated per warp in units of 256: 33 registers cost as much as 40.
  auto const odd = estimate_occupancy("sm_90", usage(33), 256, 0);
  auto const forty = estimate_occupancy("sm_90", usage(40), 256, 0);
  ASSERT_TRUE(odd && forty);
  EXPECT_EQ(odd->limits.at("registers"), forty->limits.at("registers"));
}

TEST(Occupancy, SharedMemoryCountsStaticDynamicAndTheReservedKilobyte) {
  auto const o = estimate_occupancy("sm_90", usage(32, 4096), 128, std::int64_t{96} * 1024);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->limits.at("shared_mem"), 2);  // 228 KB / (4 + 96 + 1) KB
  EXPECT_EQ(o->blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(o->occupancy_pct, 12.5);
  EXPECT_EQ(o->limited_by, std::vector<std::string>{"shared_mem"});
  // The same block on sm_86 (100 KB per SM): one block.
  auto const ampere = estimate_occupancy("sm_86", usage(32, 4096), 128, std::int64_t{90} * 1024);
  ASSERT_TRUE(ampere);
  EXPECT_EQ(ampere->blocks_per_sm, 1);
  EXPECT_EQ(ampere->max_warps_per_sm, 48);
}

TEST(Occupancy, BlocksThatCannotLaunchSayWhy) {
  auto const too_much_smem = estimate_occupancy("sm_90", usage(32), 128, std::int64_t{300} * 1024);
  ASSERT_TRUE(too_much_smem);
  EXPECT_EQ(too_much_smem->blocks_per_sm, 0);
  EXPECT_NE(too_much_smem->problem.find("shared memory"), std::string::npos) << too_much_smem->problem;
  auto const too_many_registers = estimate_occupancy("sm_90", usage(255), 1024, 0);
  ASSERT_TRUE(too_many_registers);
  EXPECT_EQ(too_many_registers->blocks_per_sm, 0);
  EXPECT_NE(too_many_registers->problem.find("registers"), std::string::npos);
  auto const too_big = estimate_occupancy("sm_90", usage(32), 2048, 0);
  ASSERT_TRUE(too_big);
  EXPECT_NE(too_big->problem.find("2048 threads"), std::string::npos);
}

TEST(Occupancy, ArchitectureVariantsShareLimitsAndUnknownOnesAreNotGuessed) {
  auto const base = estimate_occupancy("sm_90", usage(64), 256, 0);
  auto const variant = estimate_occupancy("sm_90a", usage(64), 256, 0);
  ASSERT_TRUE(base && variant);
  EXPECT_EQ(base->limits, variant->limits);
  EXPECT_FALSE(estimate_occupancy("sm_61", usage(64), 256, 0));
  EXPECT_FALSE(register_bound_occupancy_pct("sm_61", 64));
}

TEST(Occupancy, RegisterBoundWithoutABlockSize) {
  EXPECT_DOUBLE_EQ(register_bound_occupancy_pct("sm_90", 32).value_or(-1), 100.0);
  EXPECT_DOUBLE_EQ(register_bound_occupancy_pct("sm_90", 128).value_or(-1), 25.0);
  EXPECT_FALSE(register_bound_occupancy_pct("sm_90", -1));  // unknown
}

KernelCheck kernel_with(ResourceUsage const& resources, int block_threads) {
  KernelCheck kernel;
  kernel.name = "k";
  kernel.resources = resources;
  LaunchGeometryCheck launch;
  launch.sizes = {"large"};
  launch.occupancy = estimate_occupancy("sm_90", resources, block_threads, 0);
  kernel.launches.push_back(launch);
  return kernel;
}

TEST(StaticFindings, RegisterLimitedOccupancyWithoutLaunchBoundsSaysSo) {
  auto const kernel = kernel_with(usage(128), 256);
  auto const findings = static_findings(kernel, "__global__ void k(float* x) { x[0] = 1; }");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].tool, "occupancy");
  EXPECT_EQ(findings[0].severity, Severity::medium);  // 25%: below 50, not below 25
  EXPECT_NE(findings[0].explanation.find("Theoretical occupancy is 25%"), std::string::npos)
      << findings[0].explanation;
  EXPECT_NE(findings[0].explanation.find("registers per thread (2 blocks per SM)"), std::string::npos)
      << findings[0].explanation;
  EXPECT_NE(findings[0].explanation.find("no __launch_bounds__"), std::string::npos);
  EXPECT_EQ(findings[0].strategies, std::vector<std::string>{"reduce_register_pressure"});

  auto const bounded = static_findings(kernel, "__global__ void __launch_bounds__(256) k(float* x) {}");
  ASSERT_EQ(bounded.size(), 1u);
  EXPECT_EQ(bounded[0].explanation.find("no __launch_bounds__"), std::string::npos);
}

// Outside text (issue #23): 1 MiB of spaces after __launch_bounds__ in a candidate is read in linear time
// (std::regex recursed once per character and overflowed the stack).
TEST(StaticFindings, AMegabyteOfSpacesAfterLaunchBoundsIsReadNotACrash) {
  auto const kernel = kernel_with(usage(128), 256);
  std::string const spaces(std::size_t{1} << 20, ' ');
  auto const bounded =
      static_findings(kernel, "__global__ void __launch_bounds__" + spaces + "(256) k(float* x) {}");
  ASSERT_EQ(bounded.size(), 1u);
  EXPECT_EQ(bounded[0].explanation.find("no __launch_bounds__"), std::string::npos);
  auto const mentioned =
      static_findings(kernel, "// __launch_bounds__" + spaces + "\n__global__ void k(float* x) {}");
  ASSERT_EQ(mentioned.size(), 1u);
  EXPECT_NE(mentioned[0].explanation.find("no __launch_bounds__"), std::string::npos);
}

TEST(StaticFindings, FullOccupancyAndNoLocalMemoryFindNothing) {
  EXPECT_TRUE(static_findings(kernel_with(usage(32), 256), "").empty());
}

TEST(StaticFindings, SpillsAreReported) {
  auto const findings = static_findings(kernel_with(usage(32, 0, 64, 64), 256), "");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].tool, "register_spills");
}

// One compile cache for the whole test program: the task's reference is built once.
CompileCheckOptions test_options() {
  static eval_test::TempDir const cache;
  CompileCheckOptions options;
  options.compile.cache_dir = cache.path();
  return options;
}

fs::path example(std::string const& relative) {
  return fs::path(KOPT_SOURCE_DIR) / "examples" / relative;
}

CandidateSource candidate_at(fs::path const& path) {
  CandidateSource source;
  source.path = path;
  return source;
}

CandidateSource candidate_text(std::string const& name, std::string text) {
  CandidateSource source;
  source.name = name;
  source.path = name;
  source.source = std::move(text);
  return source;
}

Result<CompileCheckReport> check(std::string const& task_name, std::vector<CandidateSource> const& candidates,
                                 CompileCheckOptions const& options = test_options()) {
  auto task = load_task(example(task_name));
  if (!task) return task.error();
  return check_compiles(*task, candidates, options);
}

// A kernel-mode candidate with a syntax error on line 2.
CandidateSource broken_candidate() {
  return candidate_text(
      "broken.cu",
      "extern \"C\" __global__ void vector_add(float* c, const float* a, const float* b, int n) {\n"
      "  c[0] = a[0] + ;\n}\n");
}

TEST(CheckCompiles, AGoodKernelCandidateHasResourcesOccupancyAndTheDefaultArch) {
  auto report =
      check("vector_add", {candidate_at(example("vector_add/candidates/vector_add_float4_kernel.cu"))});
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->arch, "sm_90");
  EXPECT_NE(report->arch_source.find("primary target"), std::string::npos);
  ASSERT_EQ(report->trusted.size(), 1u);
  EXPECT_EQ(report->trusted[0].role, "reference");
  EXPECT_EQ(report->trusted[0].status, CandidateStatus::ok);
  EXPECT_EQ(report->trusted[0].mode, CandidateMode::launcher);
  ASSERT_EQ(report->candidates.size(), 1u);
  CompileCheckEntry const& entry = report->candidates[0];
  EXPECT_EQ(entry.status, CandidateStatus::ok) << entry.message << entry.diagnostics;
  EXPECT_EQ(entry.mode, CandidateMode::kernel);
  EXPECT_EQ(entry.arch, "sm_90");
  ASSERT_EQ(entry.kernels.size(), 1u);
  KernelCheck const& kernel = entry.kernels[0];
  EXPECT_EQ(kernel.name, "vector_add");
  EXPECT_FALSE(kernel.aggregate);
  EXPECT_GT(kernel.resources.registers, 0);
  EXPECT_EQ(kernel.resources.spill_stores_bytes, 0);
  // block=(256) on every size: one geometry for odd, medium and large.
  ASSERT_EQ(kernel.launches.size(), 1u);
  EXPECT_EQ(kernel.launches[0].sizes, (std::vector<std::string>{"odd", "medium", "large"}));
  ASSERT_TRUE(kernel.launches[0].occupancy);
  EXPECT_EQ(kernel.launches[0].occupancy->block_threads, 256);
  EXPECT_GT(kernel.launches[0].occupancy->occupancy_pct, 0.0);
  EXPECT_TRUE(all_candidates_compiled(*report));
}

TEST(CheckCompiles, ASyntaxErrorIsACompileErrorWithTheDiagnosticLine) {
  auto report = check("vector_add", {broken_candidate()});
  ASSERT_TRUE(report) << report.error().message;
  CompileCheckEntry const& entry = report->candidates.at(0);
  EXPECT_EQ(entry.status, CandidateStatus::compile_error);
  EXPECT_NE(entry.message.find("compilation failed: "), std::string::npos) << entry.message;
  EXPECT_NE(entry.diagnostics.find("broken.cu(2)"), std::string::npos) << entry.diagnostics;
  EXPECT_NE(entry.diagnostics.find("error"), std::string::npos);
  EXPECT_TRUE(entry.kernels.empty());
  EXPECT_FALSE(all_candidates_compiled(*report));
}

TEST(CheckCompiles, ALauncherCandidateReportsTheLargestResourcesOfItsKernels) {
  auto report =
      check("vector_add", {candidate_at(example("vector_add/candidates/vector_add_float4_launcher.cu"))});
  ASSERT_TRUE(report) << report.error().message;
  CompileCheckEntry const& entry = report->candidates.at(0);
  EXPECT_EQ(entry.status, CandidateStatus::ok) << entry.message << entry.diagnostics;
  EXPECT_EQ(entry.mode, CandidateMode::launcher);
  ASSERT_EQ(entry.kernels.size(), 1u);
  EXPECT_TRUE(entry.kernels[0].aggregate);
  EXPECT_GT(entry.kernels[0].resources.registers, 0);
  EXPECT_TRUE(entry.kernels[0].launches.empty());
  ASSERT_TRUE(entry.kernels[0].register_bound_occupancy_pct);
  EXPECT_GT(*entry.kernels[0].register_bound_occupancy_pct, 0.0);
}

TEST(CheckCompiles, ALocalArrayShowsAsLocalMemoryAndAFinding) {
  // A dynamically indexed local array lives in the stack frame (local memory), spills or not.
  auto report =
      check("vector_add", {candidate_text("local.cu",
                                          "extern \"C\" __global__ void vector_add(float* c, const float* "
                                          "a, const float* b, int n) {\n"
                                          "  float t[64];\n"
                                          "  for (int i = 0; i < 64; ++i) t[i] = a[(threadIdx.x * i) % n];\n"
                                          "  c[threadIdx.x] = t[(threadIdx.x * 7 + n) % 64] + b[0];\n}\n")});
  ASSERT_TRUE(report) << report.error().message;
  CompileCheckEntry const& entry = report->candidates.at(0);
  ASSERT_EQ(entry.status, CandidateStatus::ok) << entry.diagnostics;
  EXPECT_GT(entry.kernels.at(0).resources.stack_bytes, 0);
  ASSERT_FALSE(entry.findings.empty());
  EXPECT_EQ(entry.findings[0].tool, "register_spills");
}

TEST(CheckCompiles, TheArchitectureGivenIsUsed) {
  CompileCheckOptions options = test_options();
  options.compile.arch = "sm_80";
  auto report = check("vector_add",
                      {candidate_at(example("vector_add/candidates/vector_add_float4_kernel.cu"))}, options);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->arch, "sm_80");
  EXPECT_EQ(report->arch_source, "--arch");
  EXPECT_EQ(report->candidates.at(0).arch, "sm_80");
  EXPECT_EQ(report->candidates.at(0).kernels.at(0).launches.at(0).occupancy->max_warps_per_sm, 64);
}

TEST(CheckCompiles, AReferenceThatDoesNotCompileIsTheTasksError) {
  eval_test::TempDir dir;
  fs::copy_file(example("vector_add/task.toml"), dir.path() / "task.toml");
  std::ofstream(dir.path() / "reference.cu")
      << "extern \"C\" void vector_add(float* c, const float* a, const float* b, int n) { oops }\n";
  auto task = load_task(dir.path());
  ASSERT_TRUE(task) << task.error().message;
  auto report = check_compiles(*task, {}, test_options());
  ASSERT_FALSE(report);
  EXPECT_EQ(report.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(report.error().message.find("the task's reference"), std::string::npos) << report.error().message;
  EXPECT_NE(report.error().message.find("does not compile for sm_90"), std::string::npos);
}

TEST(CompileCheckJson, TheDocumentCarriesSchemaTargetEntriesAndKernels) {
  auto report =
      check("vector_add",
            {candidate_at(example("vector_add/candidates/vector_add_float4_kernel.cu")), broken_candidate()});
  ASSERT_TRUE(report) << report.error().message;
  report->checked = {"compile"};
  report->not_checked = {"timing"};
  nlohmann::json const doc = to_json(*report);
  EXPECT_EQ(doc["schema"], "kopt.compile_check/1");
  EXPECT_EQ(doc["task"], "vector_add");
  EXPECT_EQ(doc["arch"], "sm_90");
  EXPECT_EQ(doc["checked"], nlohmann::json::array({"compile"}));
  EXPECT_EQ(doc["not_checked"], nlohmann::json::array({"timing"}));
  EXPECT_EQ(doc["trusted"][0]["role"], "reference");
  EXPECT_EQ(doc["trusted"][0]["mode"], "launcher");
  nlohmann::json const& good = doc["candidates"][0];
  EXPECT_EQ(good["status"], "ok");
  EXPECT_EQ(good["mode"], "kernel");
  EXPECT_EQ(good["arch"], "sm_90");
  EXPECT_GT(good["kernels"][0]["resources"]["registers"].get<int>(), 0);
  EXPECT_EQ(good["kernels"][0]["resources"]["spill_stores_bytes"], 0);
  EXPECT_EQ(good["kernels"][0]["launches"][0]["sizes"].size(), 3u);
  EXPECT_EQ(good["kernels"][0]["launches"][0]["occupancy"]["block_threads"], 256);
  EXPECT_TRUE(good["kernels"][0]["launches"][0]["occupancy"]["limits"].contains("registers"));
  EXPECT_TRUE(good["findings"].is_array());
  nlohmann::json const& bad = doc["candidates"][1];
  EXPECT_EQ(bad["status"], "compile_error");
  EXPECT_NE(bad["diagnostics"].get<std::string>().find("error"), std::string::npos);
  EXPECT_TRUE(bad["kernels"].empty());
}

TEST(CompileCheckRender, TextShowsTargetStatusesResourcesAndDiagnostics) {
  auto report =
      check("vector_add",
            {candidate_at(example("vector_add/candidates/vector_add_float4_kernel.cu")), broken_candidate()});
  ASSERT_TRUE(report) << report.error().message;
  report->not_checked = {"timing"};
  std::string const text = render_compile_check(*report);
  EXPECT_NE(text.find("arch     sm_90 (kopt's primary target"), std::string::npos) << text;
  EXPECT_NE(text.find("candidate vector_add_float4_kernel.cu  (kernel mode, sm_90): ok"), std::string::npos)
      << text;
  EXPECT_NE(text.find("odd,medium,large"), std::string::npos) << text;
  EXPECT_NE(text.find("candidate broken.cu  (kernel mode, sm_90): compile_error"), std::string::npos) << text;
  EXPECT_NE(text.find("  diagnostics:\n    broken.cu(2)"), std::string::npos) << text;
  EXPECT_NE(text.find("2 candidates: 1 compiled, 1 failed"), std::string::npos) << text;
  EXPECT_NE(text.find("not checked: timing"), std::string::npos) << text;
}

}  // namespace compile_check_test
}  // namespace kopt
