// `kopt eval --compile-only`, `kopt task check` and `kopt doctor` end to end: the built kopt executable on
// the examples' tasks, on this machine whether or not it has a GPU (the no-GPU cases skip where one is).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/kopt_process.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace compile_only_command_test {

namespace fs = std::filesystem;

std::string read_text(fs::path const& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct CompileOnlyCommand : test::KoptProcessTest {
  // Runs kopt in the source folder with a private compile cache.
  test::KoptOutcome run(std::string const& arguments) {
    return KoptProcessTest::run("KOPT_CACHE_DIR=" + (cache().path() / "cache").string(), arguments);
  }
  // Whether kopt doctor found a usable GPU here.
  bool has_gpu() {
    auto const doctor = run("doctor --json");
    auto const document = nlohmann::json::parse(doctor.out, nullptr, false);
    return !document.is_discarded() && !document["device"].is_null();
  }
  fs::path write(std::string const& name, std::string const& text) {
    fs::path path = dir.path() / name;
    std::ofstream(path) << text;
    return path;
  }
  static test::TempDir const& cache() {
    static test::TempDir const shared;  // the reference is built once for the whole program
    return shared;
  }
};

constexpr char const* kKernel = "examples/vector_add/candidates/vector_add_float4_kernel.cu";
constexpr char const* kLauncher = "examples/vector_add/candidates/vector_add_float4_launcher.cu";

TEST_F(CompileOnlyCommand, GoodCandidatesCompileAndShowResourcesForTheDefaultArch) {
  auto result = run(std::string("eval examples/vector_add ") + kKernel + " " + kLauncher + " --compile-only");
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("arch     sm_90 (kopt's primary target"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("reference reference.cu  (launcher mode, sm_90): ok"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("candidate vector_add_float4_kernel.cu  (kernel mode, sm_90): ok"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("candidate vector_add_float4_launcher.cu  (launcher mode, sm_90): ok"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("(all kernels)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("2 candidates: 2 compiled, 0 failed"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("not checked: verification against the reference"), std::string::npos);
}

TEST_F(CompileOnlyCommand, ACompileErrorExitsOneWithTheDiagnostics) {
  auto const bad =
      write("bad.cu",
            "extern \"C\" __global__ void vector_add(float* c, const float* a, const float* b, int n) "
            "{\n  c[0] = a[0] +;\n}\n");
  auto result =
      run(std::string("eval examples/vector_add ") + kKernel + " " + bad.string() + " --compile-only");
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("candidate bad.cu  (kernel mode, sm_90): compile_error"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("bad.cu(2): error"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("2 candidates: 1 compiled, 1 failed"), std::string::npos);
}

TEST_F(CompileOnlyCommand, JsonIsACompileCheckDocumentAndOutWritesIt) {
  auto const file = dir.path() / "check.json";
  auto result = run(std::string("eval examples/vector_add ") + kKernel +
                    " --compile-only --arch sm_80 --json --out " + file.string());
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  auto const document = nlohmann::json::parse(result.out);
  EXPECT_EQ(document["schema"], "kopt.compile_check/1");
  EXPECT_EQ(document["arch"], "sm_80");
  EXPECT_EQ(document["arch_source"], "--arch");
  EXPECT_EQ(document["candidates"][0]["status"], "ok");
  EXPECT_GT(document["candidates"][0]["kernels"][0]["resources"]["registers"].get<int>(), 0);
  EXPECT_EQ(nlohmann::json::parse(read_text(file)), document);
}

TEST_F(CompileOnlyCommand, OptionsThatNeedAGpuAreUsageErrors) {
  for (char const* option : {"--sanitize", "--tier screen", "--seed 1", "--device 0", "--no-baseline"}) {
    auto result = run(std::string("eval examples/vector_add ") + kKernel + " --compile-only " + option);
    EXPECT_EQ(result.exit_code, 2) << option << ": " << result.err;
    EXPECT_NE(result.err.find("excludes"), std::string::npos) << option << ": " << result.err;
  }
  auto arch = run(std::string("eval examples/vector_add ") + kKernel + " --compile-only --arch compute_90");
  EXPECT_EQ(arch.exit_code, 2) << arch.err;
  EXPECT_NE(arch.err.find("--arch"), std::string::npos) << arch.err;
}

TEST_F(CompileOnlyCommand, TaskCheckCompileOnlyExitsZeroWhenTheReferenceCompiles) {
  auto result = run("task check examples/softmax --compile-only");
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("reference reference.cu  (launcher mode, sm_90): ok"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("checked: task spec, input generators, compile (reference), resources"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("not checked: the reference runs on every size case"), std::string::npos);
}

TEST_F(CompileOnlyCommand, TaskCheckWithoutAGpuReportsWhatItCheckedAndExitsThree) {
  if (has_gpu()) GTEST_SKIP() << "this machine has a GPU: task check runs the reference";
  auto result = run("task check examples/vector_add");
  EXPECT_EQ(result.exit_code, 3) << result.out << result.err;
  EXPECT_NE(result.out.find("reference reference.cu  (launcher mode, sm_90): ok"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("not checked: the reference runs on every size case, determinism, constant "
                            "outputs, timing (needs a GPU: "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.err.find("running the reference needs a GPU (exit 3)"), std::string::npos) << result.err;
  auto json = run("task check examples/vector_add --json");
  EXPECT_EQ(json.exit_code, 3);
  auto const document = nlohmann::json::parse(json.out);
  EXPECT_EQ(document["schema"], "kopt.compile_check/1");
  EXPECT_EQ(document["trusted"][0]["status"], "ok");
}

// The README's first command on a machine without a GPU: exit 3, and the error names the way forward.
TEST_F(CompileOnlyCommand, EvalWithoutAGpuExitsThreeAndPointsToCompileOnly) {
  if (has_gpu()) GTEST_SKIP() << "this machine has a GPU: eval runs";
  auto result = run(std::string("eval examples/vector_add ") + kKernel);
  EXPECT_EQ(result.exit_code, 3) << result.out << result.err;
  EXPECT_NE(result.err.find("no usable CUDA GPU"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("`kopt eval ... --compile-only` compiles the candidates"), std::string::npos)
      << result.err;
}

TEST_F(CompileOnlyCommand, ABrokenTaskIsAnInputError) {
  auto const task = dir.path() / "task";
  fs::create_directories(task);
  fs::copy_file(fs::path(KOPT_SOURCE_DIR) / "examples/vector_add/task.toml", task / "task.toml");
  std::ofstream(task / "reference.cu")
      << "extern \"C\" void vector_add(float* c, const float* a, const float* "
         "b, int n) { nope }\n";
  auto result = run("task check " + task.string() + " --compile-only");
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  EXPECT_NE(result.err.find("the task's reference"), std::string::npos) << result.err;
  auto eval = run("eval " + task.string() + " " + kKernel + " --compile-only");
  EXPECT_EQ(eval.exit_code, 2) << eval.err;
}

// `kopt strategies TASK --instantiate` writes a tunable kernel whose launch line names its knobs (BLOCK):
// `kopt eval` takes its defaults (before 2026-12-06 the geometry "does not evaluate: unknown identifier
// 'BLOCK'").
TEST_F(CompileOnlyCommand, AnInstantiatedStrategyEvaluatesAtItsDefaults) {
  auto const kernel = dir.path() / "mid_reduce.cu";
  auto instantiate =
      run("strategies suites/algebra/mid_sum-f32 --instantiate mid_reduce_split_rows -o " + kernel.string());
  ASSERT_EQ(instantiate.exit_code, 0) << instantiate.out << instantiate.err;
  auto result = run("eval suites/algebra/mid_sum-f32 " + kernel.string() + " --compile-only");
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ(result.out.find("does not evaluate"), std::string::npos) << result.out;
  EXPECT_NE(result.err.find("candidate mid_reduce.cu is tunable: evaluating "), std::string::npos)
      << result.err;
  auto refused =
      run("eval suites/algebra/mid_sum-f32 " + kernel.string() + " --compile-only --flag=-DSTRIP=3");
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("-DSTRIP=3 is not a value of its knob STRIP"), std::string::npos) << refused.err;
}

TEST_F(CompileOnlyCommand, DoctorWithoutAGpuSaysWhatStillWorks) {
  if (has_gpu()) GTEST_SKIP() << "this machine has a GPU";
  auto result = run("doctor");
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_NE(result.out.find("without a GPU, kopt can still:"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("kopt eval TASK CAND.cu... --compile-only"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("these need a GPU:"), std::string::npos) << result.out;
  auto json = run("doctor --json");
  auto const document = nlohmann::json::parse(json.out);
  ASSERT_TRUE(document["without_gpu"].is_object()) << json.out;
  EXPECT_FALSE(document["without_gpu"]["works"].empty());
}

}  // namespace compile_only_command_test
}  // namespace kopt
