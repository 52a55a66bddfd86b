// kopt's side of the PyTorch bridge on the CPU (docs/pytorch.md): a problem imported by kopt_torch, its
// reference process started on the CPU, and the results files the worker would read checked byte for byte:
// unmasked with their keys, they must be the module's outputs on exactly the inputs the worker generates
// for the same trial seeds. Skipped (visibly) without a Python that has torch.
#include "eval/torch_reference.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "kopt/inputs.hpp"
#include "kopt/worker/masked_results.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace torch_reference_test {

// Imports `problem` (relative to the repository root) into a fresh folder; empty with `skip` set when
// there is no torch.
std::filesystem::path import_problem(std::string const& problem, std::filesystem::path const& dir,
                                     std::string& skip) {
  auto python = find_torch_python();
  if (!python) {
    skip = python.error().message;
    return {};
  }
  ProcessSpec spec = python->command(
      {"import", (std::filesystem::path(KOPT_SOURCE_DIR) / problem).string(), "-o", dir.string(), "--force"});
  spec.stderr_target = StderrTarget::pipe;
  CommunicateOptions options;
  options.timeout = std::chrono::minutes(3);
  auto outcome = run_process(spec, options);
  EXPECT_TRUE(outcome.ok());
  if (!outcome.ok()) return {};
  if (outcome->error_tail.find("No module named 'torch'") != std::string::npos) {
    skip = "the bridge's Python has no torch (scripts/setup.sh installs it)";
    return {};
  }
  EXPECT_TRUE(outcome->status("kopt_torch import").ok()) << outcome->error_tail;
  return dir;
}

std::vector<std::byte> read_bytes(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

TEST(TorchReference, ResultsFilesHoldTheModulesOutputsOnTheWorkersInputsMasked) {
  test::TempDir const scratch;
  std::string skip;
  auto const dir = import_problem("suites/pytorch/level1/relu.py", scratch.path() / "relu", skip);
  if (!skip.empty()) GTEST_SKIP() << skip;
  ASSERT_FALSE(dir.empty());
  auto task = load_task(dir);
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto const odd =
      std::find_if(task->sizes.begin(), task->sizes.end(), [](SizeCase const& s) { return s.verify_only; });
  ASSERT_NE(odd, task->sizes.end()) << "the importer wrote no verify-only size case";

  auto const work = scratch.path() / "work";
  auto reference = TorchReference::start(*task, -1, work);
  ASSERT_TRUE(reference.ok()) << reference.error().message;
  EXPECT_EQ((*reference)->hello().value("protocol", 0), 1);
  auto const runtime = (*reference)->runtime_dirs();  // what the worker will refuse to read
  ASSERT_FALSE(runtime.empty());
  EXPECT_TRUE(std::filesystem::exists(runtime.front() / "__init__.py")) << runtime.front();
  std::uint64_t const seed = 12345;
  auto files = (*reference)->results_for(*task, {&*odd}, seed);
  ASSERT_TRUE(files.ok()) << files.error().message;
  ASSERT_EQ(files->size(), static_cast<std::size_t>(task->trials));  // verify only: no check after timing
  bool saw_negative = false;
  for (auto const& file : *files) {
    EXPECT_EQ(file.seed, trial_seed(seed, 0, file.trial));
    auto inputs = generate_inputs(*task, *odd, file.seed, file.trial);
    ASSERT_TRUE(inputs.ok()) << inputs.error().message;
    auto const& x = inputs->buffers.front();
    ASSERT_EQ(x.name, "x");
    std::vector<std::byte> results = read_bytes(file.path);
    ASSERT_EQ(file.buffers.size(), 1u);
    ASSERT_EQ(results.size(), x.bytes.size());
    ASSERT_EQ(file.buffers[0].bytes, results.size());
    // Masked: the file is not the answer in clear.
    std::vector<float> expected(x.count);
    std::memcpy(expected.data(), x.bytes.data(), x.bytes.size());
    float max_abs = 0.0f;
    for (float& v : expected) {
      saw_negative = saw_negative || v < 0.0f;
      v = std::max(v, 0.0f);
      max_abs = std::max(max_abs, std::fabs(v));
    }
    EXPECT_NE(std::memcmp(results.data(), expected.data(), results.size()), 0) << "results stored in clear";
    worker::apply_mask(results.data(), results.size(), file.key);
    EXPECT_EQ(std::memcmp(results.data(), expected.data(), results.size()), 0)
        << "trial " << file.trial << ": unmasked results differ from relu(inputs)";
    EXPECT_FLOAT_EQ(static_cast<float>(file.buffers[0].scale), max_abs);
    EXPECT_TRUE(file.buffers[0].varies);
  }
  EXPECT_TRUE(saw_negative) << "the trials' inputs never had a negative value";
  // `kopt task check`'s look at the reference itself: the same inputs twice give the same bytes, and ReLU of
  // varied inputs is not constant.
  auto check = (*reference)->self_check(*task, *odd, seed);
  ASSERT_TRUE(check.ok()) << check.error().message;
  EXPECT_TRUE(check->deterministic);
  EXPECT_FALSE(check->constant);
  // Asked again, the same files come back without a new forward.
  auto again = (*reference)->results_for(*task, {&*odd}, seed);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->front().path, files->front().path);
  EXPECT_EQ(again->front().key, files->front().key);
  reference->reset();
  EXPECT_TRUE(std::filesystem::is_empty(work / "torch")) << "the reference's folders were left behind";
}

}  // namespace torch_reference_test
}  // namespace kopt
