// The benchmark suite (suites/<scenario>/<task>-<dtype>/, docs/suites.md): every task loads, follows the
// suite's conventions, and its reference and vendor baseline compile for sm_90 and sm_80 (issue #5's CI
// requirement), with no GPU. One test per task, discovered from the tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kopt/compile.hpp"
#include "kopt/task.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace suites_test {

std::filesystem::path const kSuites = std::filesystem::path(KOPT_SOURCE_DIR) / "suites";

std::vector<std::string> suite_tasks() {
  std::vector<std::string> tasks;
  std::error_code ec;
  for (auto const& entry : std::filesystem::recursive_directory_iterator(kSuites, ec)) {
    if (entry.path().filename() == "task.toml")
      tasks.push_back(std::filesystem::relative(entry.path().parent_path(), kSuites).string());
  }
  std::sort(tasks.begin(), tasks.end());
  return tasks;
}

std::set<std::string> const kFamilies = {"elementwise",
                                         "scaled_copy",
                                         "reduction",
                                         "dot",
                                         "gemv",
                                         "gemm",
                                         "batched_gemm",
                                         "transpose",
                                         "scan",
                                         "sort",
                                         "topk",
                                         "activation",
                                         "swiglu",
                                         "row_softmax",
                                         "layernorm",
                                         "rmsnorm",
                                         "rope",
                                         "attention",
                                         "cross_entropy",
                                         "spmv_csr",
                                         "spmv_coo",
                                         "spmv_ell",
                                         "spmm_csr",
                                         "stencil2d",
                                         "stencil3d",
                                         "fft",
                                         "conv1d",
                                         "conv2d",
                                         "integration",
                                         "nbody",
                                         "loss",
                                         "pool2d",
                                         "row_reduce",
                                         "col_reduce",
                                         "batchnorm",
                                         "reverse",
                                         "row_argmax",
                                         "axpy",
                                         "rope_interleaved",
                                         "gather_rows",
                                         "topk_indices",
                                         "row_scan",
                                         "sort_pairs",
                                         "conv2d_nchw",
                                         "fft_split",
                                         "batchnorm_train",
                                         "col_argmax",
                                         "row_argmin",
                                         "col_argmin",
                                         "axpby",
                                         "two_scalar_map",
                                         "col_scan",
                                         "scatter_rows",
                                         "scatter_add_rows",
                                         "copy2d",
                                         "matrix_power",
                                         "linear",
                                         "gemm_nt",
                                         "fft_inverse",
                                         "fft_split_inverse",
                                         "conv2d_nchw_bias",
                                         "row_log_softmax",
                                         "mid_reduce",
                                         "mid_argmax",
                                         "mid_argmin",
                                         "cross_entropy_mean",
                                         "conv2d_nchw_strided",
                                         "conv2d_nchw_strided_bias",
                                         "linear_channel",
                                         "conv2d_nchw_bias_channel",
                                         "conv_transpose2d_nchw",
                                         "conv_transpose2d_nchw_bias",
                                         "conv_transpose2d_nchw_bias_channel",
                                         "conv3d_ncdhw",
                                         "conv3d_ncdhw_bias",
                                         "conv3d_ncdhw_bias_channel",
                                         "conv_transpose3d_ncdhw",
                                         "conv_transpose3d_ncdhw_bias",
                                         "row_standardize",
                                         "group_norm",
                                         "row_normalize",
                                         "mid_normalize",
                                         "pool3d_ncdhw",
                                         "depthwise_conv2d_nchw",
                                         "depthwise_conv2d_nchw_bias",
                                         "loss_rows",
                                         "loss_rows_broadcast",
                                         "row_scan_reverse",
                                         "row_cumprod",
                                         "row_scan_masked",
                                         "row_scan_exclusive",
                                         "channel_map",
                                         "mid_softmax",
                                         "row_logsumexp"};

std::string read_file(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The vendor headers a source reaches through its own #include "..." lines (each resolved beside the file
// that names it, then in the task folder), as "<cub/...>" lines: a reference must reach none.
std::vector<std::string> vendor_includes(std::filesystem::path const& source,
                                         std::filesystem::path const& task_dir) {
  std::vector<std::string> found;
  std::set<std::filesystem::path> seen;
  std::vector<std::filesystem::path> pending = {source};
  while (!pending.empty()) {
    std::filesystem::path const file = pending.back();
    pending.pop_back();
    if (!seen.insert(file.lexically_normal()).second) continue;
    std::istringstream lines(read_file(file));
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("#include")) continue;
      if (line.find("<cub/") != std::string::npos || line.find("<thrust/") != std::string::npos) {
        found.push_back(file.filename().string() + ": " + line);
        continue;
      }
      auto const open = line.find('"');
      auto const close = line.rfind('"');
      if (open == std::string::npos || close <= open) continue;
      std::string const name = line.substr(open + 1, close - open - 1);
      std::filesystem::path const beside = file.parent_path() / name;
      pending.push_back(std::filesystem::exists(beside) ? beside : task_dir / name);
    }
  }
  return found;
}

// The launcher as kopt builds it: nvcc, the task folder on the include path, for sm_90 and sm_80.
void expect_compiles(Compiler const& compiler, TaskSpec const& task, SourceSpec const& source) {
  CompileRequest request;
  request.mode = CandidateMode::launcher;
  request.source = read_file(source.path);
  request.origin = source.path;
  request.entry = task.signature.function;
  request.include_dirs = {task.dir};
  request.libraries = source.libraries;
  auto outcome = compiler.compile(request);
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_TRUE(outcome->ok) << source.path.string() << ":\n" << outcome->diagnostics;
}

class SuiteTask : public ::testing::TestWithParam<std::string> {};

TEST_P(SuiteTask, LoadsFollowsTheConventionsAndCompiles) {
  std::filesystem::path const dir = kSuites / GetParam();
  auto task = load_task(dir);
  ASSERT_TRUE(task.ok()) << task.error().message;
  std::string const folder = dir.filename().string();
  EXPECT_EQ(task->name, folder) << "name = <task>-<dtype>, the folder's name";
  EXPECT_TRUE(folder.ends_with("-f32") || folder.ends_with("-bf16")) << folder;
  if (task->is_chain()) {
    for (StageSpec const& stage :
         task->stages)  // a chain: each stage's family (docs/task-format.md, "Chains")
      EXPECT_EQ(kFamilies.count(stage.family), 1u)
          << "family '" << stage.family << "' is not in docs/suites.md";
  } else {
    EXPECT_EQ(kFamilies.count(task->family), 1u)
        << "family '" << task->family << "' is not in docs/suites.md";
  }
  EXPECT_TRUE(std::any_of(task->sizes.begin(), task->sizes.end(), [](SizeCase const& s) {
    return s.verify_only;
  })) << "an odd, verify-only size case";
  EXPECT_TRUE(std::any_of(task->sizes.begin(), task->sizes.end(), [](SizeCase const& s) {
    return !s.verify_only;
  })) << "a timed size case";
  EXPECT_TRUE(task->work.bytes.has_value()) << "[work] bytes";
  EXPECT_TRUE(task->launch.has_value()) << "[launch]: kernel-mode candidates";

  // kopt compiles the reference at the start of every run: CUB's and thrust's headers (8-10 s of nvcc's
  // front end) belong in the baseline's own header (docs/suites.md, "CI").
  for (std::string const& line : vendor_includes(task->reference.path, task->dir))
    ADD_FAILURE() << "the reference reaches a vendor header: " << line;

  test::TempDir cache;
  CompileOptions options;
  options.arch = "sm_90";
  options.gencode = {"arch=compute_80,code=sm_80"};
  options.cache_dir = cache.path();
  options.jobs = 1;
  auto compiler = Compiler::create(options);
  ASSERT_TRUE(compiler.ok()) << compiler.error().message;
  expect_compiles(*compiler, *task, task->reference);
  if (task->baseline) expect_compiles(*compiler, *task, *task->baseline);
}

// "algebra/gemv-bf16" -> "algebra_gemv_bf16".
std::string test_name(::testing::TestParamInfo<std::string> const& param) {
  std::string name = param.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Suites, SuiteTask, ::testing::ValuesIn(suite_tasks()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SuiteTask);

TEST(Suites, EveryScenarioHasTasksInBothPrecisions) {
  std::vector<std::string> const tasks = suite_tasks();
  for (std::string scenario : {"algebra", "llm", "sparse", "scientific"}) {
    bool f32 = false;
    bool bf16 = false;
    for (auto const& t : tasks) {
      if (t.rfind(scenario + "/", 0) != 0) continue;
      f32 = f32 || t.ends_with("-f32");
      bf16 = bf16 || t.ends_with("-bf16");
    }
    EXPECT_TRUE(f32 && bf16) << "suites/" << scenario << ": FP32 and BF16 tasks";
  }
}

}  // namespace suites_test
}  // namespace kopt
