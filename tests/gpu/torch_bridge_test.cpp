// The PyTorch bridge on the GPU (docs/pytorch.md): each kernel in tests/gpu/torch/ is evaluated against the
// PyTorch problem its header names (imported into a fresh task folder by kopt_torch's importer) and must
// get the verdict its header expects. The honest ones must also come back with PyTorch eager timed beside
// them (and torch.compile at the confirm tier). Without a GPU, or without a Python that has torch, the tests
// report SKIPPED.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "cheat_header.hpp"
#include "gpu_test_support.hpp"
#include "kopt/child_process.hpp"
#include "kopt/eval.hpp"
#include "kopt/task.hpp"
#include "kopt/torch_python.hpp"

namespace kopt::testing {
namespace torch_bridge_test {

std::filesystem::path torch_kernels_dir() {
  return source_path("tests/gpu/torch");
}

// The problem imported once per test run into a temporary task folder; an empty path and a reason when it
// cannot be (no torch: a skip, not a failure).
struct ImportedTask {
  std::filesystem::path dir;
  std::string skip_reason;
  std::string failure;
};

ImportedTask import_problem(std::filesystem::path const& problem) {
  static std::map<std::filesystem::path, ImportedTask> imported;
  if (auto it = imported.find(problem); it != imported.end()) return it->second;
  ImportedTask out;
  auto python = find_torch_python();
  if (!python) {
    out.skip_reason = python.error().message;
    return imported[problem] = out;
  }
  auto const dir = std::filesystem::temp_directory_path() /
                   ("kopt-torch-test-" + std::to_string(::getpid()) + "-" + problem.stem().string());
  ProcessSpec spec = python->command({"import", problem.string(), "-o", dir.string(), "--force"});
  spec.stderr_target = StderrTarget::pipe;
  CommunicateOptions options;
  options.timeout = std::chrono::minutes(5);
  auto outcome = run_process(spec, options);
  if (!outcome) {
    out.failure = outcome.error().message;
  } else if (outcome->exit.exited && outcome->exit.code == 0) {
    out.dir = dir;
  } else if (outcome->error_tail.find("No module named 'torch'") != std::string::npos) {
    out.skip_reason = "the Python for the PyTorch bridge has no torch (scripts/setup.sh installs it)";
  } else {
    out.failure =
        "importing " + problem.string() + ": " + outcome->status("kopt_torch import").error().message;
  }
  return imported[problem] = out;
}

class TorchBridgeTest : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(TorchBridgeTest, GetsTheVerdictItsHeaderExpects) {
  auto header = read_cheat_header(GetParam());
  ASSERT_TRUE(header.ok()) << header.error().message;
  ImportedTask const imported = import_problem(source_path(header->task));
  if (!imported.skip_reason.empty()) GTEST_SKIP() << imported.skip_reason;
  ASSERT_TRUE(imported.failure.empty()) << imported.failure;
  auto task = load_task(imported.dir);
  ASSERT_TRUE(task.ok()) << task.error().message;
  ASSERT_TRUE(task->reference.is_torch());

  EvalOptions options = gpu_test_options();
  options.mode = header->mode;
  options.tier = TimingTier::screen;
  auto evaluator = Evaluator::create(options);
  if (gpu_missing(evaluator)) GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;
  auto report =
      (*evaluator)->evaluate(*task, {CandidateSource{header->file.filename().string(), header->file, ""}});
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_EQ(report->candidates.size(), 1u);
  auto const& candidate = report->candidates.front();
  EXPECT_EQ(to_string(candidate.status), to_string(header->expect)) << "defeats: " << header->defeats << "\n"
                                                                    << describe(candidate);
  if (candidate.status != CandidateStatus::ok) return;
  // Verified: every timed size case has PyTorch eager as its reference timing and a speedup over eager; at
  // the screen tier no torch.compile timing (the confirm tier's, TheTiersShareOneReferenceProcess).
  for (auto const& size : candidate.sizes) {
    if (size.verify_only) continue;
    ASSERT_TRUE(size.candidate.has_value()) << size.size << "\n" << describe(candidate);
    ASSERT_TRUE(size.reference.has_value()) << size.size << ": no PyTorch eager timing\n"
                                            << describe(candidate);
    EXPECT_GT(size.reference->us.median, 0.0);
    EXPECT_FALSE(size.baseline.has_value()) << size.size << ": torch.compile timed at the screen tier\n"
                                            << describe(candidate);
    // At the problem's own size the hidden kernel takes tens of microseconds, far above the detection's
    // threshold (docs/timing.md, "Work on other streams"); a few microseconds of hidden work are not.
    if (GetParam().filename() == "relu_side_stream.cu" && size.size == "problem") {
      EXPECT_TRUE(size.candidate->device_wide) << "work on its own stream was not timed device-wide";
    }
  }
}

// A search calls build_trusted_code before its clock starts: for a PyTorch task that starts the reference
// process, computes the screen trials' outputs and times eager (torch.compile at the confirm tier), so that
// the evaluation after it finds all of that done (reference_ms: cache lookups and file names, not a Python
// start; docs/pytorch.md, "Time accounting").
TEST(TorchBridgeSetup, BuildTrustedCodeDoesTheReferenceWorkBeforeTheSearch) {
  ImportedTask const imported = import_problem(source_path("suites/pytorch/level1/relu.py"));
  if (!imported.skip_reason.empty()) GTEST_SKIP() << imported.skip_reason;
  ASSERT_TRUE(imported.failure.empty()) << imported.failure;
  auto task = load_task(imported.dir);
  ASSERT_TRUE(task.ok()) << task.error().message;
  EvalOptions options = gpu_test_options();
  options.tier = TimingTier::screen;
  options.seed = 20261204;  // fixed, as a search's screen evaluator's is
  auto evaluator = Evaluator::create(options);
  if (gpu_missing(evaluator)) GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;
  auto const started = std::chrono::steady_clock::now();
  auto built = (*evaluator)->build_trusted_code(*task);
  ASSERT_TRUE(built.ok()) << built.error().message;
  double const setup_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  auto const kernel = torch_kernels_dir() / "relu_vectorized.cu";
  auto report = (*evaluator)->evaluate(*task, {CandidateSource{"relu_vectorized.cu", kernel, ""}});
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_EQ(report->candidates.size(), 1u);
  auto const& candidate = report->candidates.front();
  ASSERT_EQ(candidate.status, CandidateStatus::ok) << describe(candidate);
  EXPECT_LT(candidate.phases.reference_ms, 0.1 * setup_ms)
      << "the evaluation after build_trusted_code redid the reference's work (setup " << setup_ms << " ms)";
}

// The PyTorch reference processes (`python -m kopt_torch serve ...`) that are children of this test process.
int reference_processes() {
  int count = 0;
  std::error_code ec;
  for (auto const& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::string const pid = entry.path().filename().string();
    if (pid.empty() || !std::all_of(pid.begin(), pid.end(),
                                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      continue;
    std::ifstream cmdline(entry.path() / "cmdline", std::ios::binary);
    std::string const args{std::istreambuf_iterator<char>(cmdline), std::istreambuf_iterator<char>()};
    if (args.find("kopt_torch") == std::string::npos || args.find("serve") == std::string::npos) continue;
    std::ifstream status(entry.path() / "status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("PPid:", 0) == 0 && std::stol(line.substr(5)) == static_cast<long>(::getpid())) ++count;
    }
  }
  return count;
}

// A search's two tiers share one reference process per task (Evaluator::share_torch_references): the confirm
// evaluation starts no second Python, torch and CUDA (docs/pytorch.md, "Time accounting").
TEST(TorchBridgeSetup, TheTiersShareOneReferenceProcess) {
  ImportedTask const imported = import_problem(source_path("suites/pytorch/level1/relu.py"));
  if (!imported.skip_reason.empty()) GTEST_SKIP() << imported.skip_reason;
  ASSERT_TRUE(imported.failure.empty()) << imported.failure;
  auto task = load_task(imported.dir);
  ASSERT_TRUE(task.ok()) << task.error().message;
  EvalOptions screen_options = gpu_test_options();
  auto screen = Evaluator::create(screen_options);
  if (gpu_missing(screen)) GTEST_SKIP() << "no CUDA GPU: " << screen.error().message;
  ASSERT_TRUE(screen.ok()) << screen.error().message;
  EvalOptions confirm_options = gpu_test_options();
  confirm_options.tier = TimingTier::confirm;
  confirm_options.seed.reset();
  auto confirm = Evaluator::create(confirm_options);
  ASSERT_TRUE(confirm.ok()) << confirm.error().message;
  ASSERT_TRUE((*confirm)->share_torch_references(**screen));
  int const before = reference_processes();
  ASSERT_TRUE((*screen)->build_trusted_code(*task).ok());
  auto const kernel = torch_kernels_dir() / "relu_vectorized.cu";
  auto report = (*confirm)->evaluate(*task, {CandidateSource{"relu_vectorized.cu", kernel, ""}});
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_EQ(report->candidates.size(), 1u);
  auto const& candidate = report->candidates.front();
  EXPECT_EQ(candidate.status, CandidateStatus::ok) << describe(candidate);
  EXPECT_EQ(reference_processes() - before, 1) << "the confirm tier started a reference process of its own";
  // The confirm tier times torch.compile beside eager on every timed size case (the screen tier does not).
  for (auto const& size : candidate.sizes) {
    if (size.verify_only) continue;
    EXPECT_TRUE(size.reference.has_value()) << size.size << ": no PyTorch eager timing\n"
                                            << describe(candidate);
    EXPECT_TRUE(size.baseline.has_value()) << size.size << ": no torch.compile timing\n"
                                           << describe(candidate);
  }
}

std::string test_name(::testing::TestParamInfo<std::filesystem::path> const& info) {
  std::string name = info.param.stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Torch, TorchBridgeTest, ::testing::ValuesIn(list_cheat_files(torch_kernels_dir())),
                         test_name);

}  // namespace torch_bridge_test
}  // namespace kopt::testing
