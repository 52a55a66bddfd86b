// Every adversarial kernel in tests/gpu/cheats/ must get exactly the verdict its header expects.
// Each file is written to defeat one of kopt's defences (docs/verification.md); the header says
// which. Without a GPU these tests report SKIPPED.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "cheat_header.hpp"
#include "gpu_test_support.hpp"
#include "kopt/eval.hpp"
#include "kopt/task.hpp"

namespace kopt::testing {
namespace cheats_test {

std::filesystem::path cheats_dir() {
  return source_path("tests/gpu/cheats");
}

struct CheatRun {
  std::optional<CandidateReport> candidate;  // empty after a skip or a failure of kopt itself
  std::string skip_reason;                   // set when there is no GPU
};

// Evaluates one cheat on its task with the mode its header names. An error of kopt itself (not a
// verdict about the candidate) fails the test.
CheatRun evaluate_cheat(CheatHeader const& header, bool sanitize) {
  CheatRun run;
  auto task = load_task(source_path(header.task));
  EXPECT_TRUE(task.ok()) << (task.ok() ? "" : task.error().message);
  if (!task.ok()) return run;
  EvalOptions options = gpu_test_options();
  options.mode = header.mode;
  options.sanitize = sanitize;
  auto evaluator = Evaluator::create(options);
  if (gpu_missing(evaluator)) {
    run.skip_reason = evaluator.error().message;
    return run;
  }
  EXPECT_TRUE(evaluator.ok()) << (evaluator.ok() ? "" : evaluator.error().message);
  if (!evaluator.ok()) return run;
  CandidateSource const source{header.file.filename().string(), header.file, ""};
  auto report = (*evaluator)->evaluate(*task, {source});
  EXPECT_TRUE(report.ok()) << (report.ok() ? "" : report.error().message);
  if (!report.ok()) return run;
  EXPECT_EQ(report->candidates.size(), 1u);
  if (report->candidates.size() == 1) run.candidate = report->candidates.front();
  return run;
}

class CheatTest : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(CheatTest, GetsTheVerdictItsHeaderExpects) {
  auto header = read_cheat_header(GetParam());
  ASSERT_TRUE(header.ok()) << header.error().message;
  CheatRun const plain = evaluate_cheat(*header, false);
  if (!plain.skip_reason.empty()) GTEST_SKIP() << "no CUDA GPU: " << plain.skip_reason;
  ASSERT_TRUE(plain.candidate.has_value());
  EXPECT_EQ(to_string(plain.candidate->status), to_string(header->expect))
      << "defeats: " << header->defeats << "\n"
      << describe(*plain.candidate);

  if (header->expect_with_sanitize) {
    CheatRun const sanitized = evaluate_cheat(*header, true);
    ASSERT_TRUE(sanitized.candidate.has_value());
    EXPECT_EQ(to_string(sanitized.candidate->status), to_string(*header->expect_with_sanitize))
        << "with --sanitize; defeats: " << header->defeats << "\n"
        << describe(*sanitized.candidate);
  }
}

std::string cheat_test_name(::testing::TestParamInfo<std::filesystem::path> const& info) {
  std::string name = info.param.stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cheats, CheatTest, ::testing::ValuesIn(list_cheat_files(cheats_dir())),
                         cheat_test_name);

// A launcher that hides its kernel on its own non-blocking stream is correct (ok), but its time must
// come from a device-wide measurement, and it must not look faster than the same kernel launched
// honestly on the default stream.
TEST(HiddenStreamTest, IsTimedDeviceWideAndNotFasterThanAnHonestLauncher) {
  auto task = load_task(source_path("examples/vector_add"));
  ASSERT_TRUE(task.ok()) << task.error().message;
  EvalOptions options = gpu_test_options();
  options.mode = CandidateMode::launcher;
  options.sizes = {"large"};
  auto evaluator = Evaluator::create(options);
  if (gpu_missing(evaluator)) GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;

  auto const hidden_path = cheats_dir() / "vector_add_hidden_stream.cu";
  auto const honest_path = source_path("examples/vector_add/candidates/vector_add_float4_launcher.cu");
  auto report = (*evaluator)
                    ->evaluate(*task, {CandidateSource{"hidden_stream", hidden_path, ""},
                                       CandidateSource{"honest", honest_path, ""}});
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_EQ(report->candidates.size(), 2u);
  auto const& hidden = report->candidates[0];
  auto const& honest = report->candidates[1];
  ASSERT_EQ(hidden.status, CandidateStatus::ok) << describe(hidden);
  ASSERT_EQ(honest.status, CandidateStatus::ok) << describe(honest);

  SizeResult const* hidden_large = find_size(hidden, "large");
  SizeResult const* honest_large = find_size(honest, "large");
  ASSERT_NE(hidden_large, nullptr) << describe(hidden);
  ASSERT_NE(honest_large, nullptr) << describe(honest);
  ASSERT_TRUE(hidden_large->candidate.has_value()) << describe(hidden);
  ASSERT_TRUE(honest_large->candidate.has_value()) << describe(honest);
  EXPECT_TRUE(hidden_large->candidate->device_wide)
      << "work on a hidden stream was timed on the launch stream only";
  EXPECT_GE(hidden_large->candidate->us.median, 0.8 * honest_large->candidate->us.median)
      << "hidden-stream median " << hidden_large->candidate->us.median << " us vs honest "
      << honest_large->candidate->us.median << " us";
}

// A candidate that tries to leave the sandbox (write outside its scratch folder, ptrace kopt) gets
// sandbox_violation with a message saying what it tried, even though its output is right; an honest
// candidate evaluated between two violators in the same call is unaffected (ok), and nothing the
// violators tried to plant in /tmp is left there.
TEST(SandboxViolationTest, TheNextCandidateIsEvaluatedNormally) {
  auto task = load_task(source_path("examples/vector_add"));
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto const violation = candidate_status_from_string("sandbox_violation");
  ASSERT_TRUE(violation.has_value()) << "no CandidateStatus named sandbox_violation";
  EvalOptions options = gpu_test_options();
  options.mode = CandidateMode::launcher;
  options.sizes = {"odd"};  // examples/vector_add has no size named small: its smallest one
  auto evaluator = Evaluator::create(options);
  if (gpu_missing(evaluator)) GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;

  auto const writes_path = cheats_dir() / "vector_add_writes_outside_scratch.cu";
  auto const honest_path = source_path("examples/vector_add/candidates/vector_add_float4_launcher.cu");
  auto const ptraces_path = cheats_dir() / "vector_add_ptraces_parent.cu";
  auto report = (*evaluator)
                    ->evaluate(*task, {CandidateSource{"writes_outside_scratch", writes_path, ""},
                                       CandidateSource{"honest", honest_path, ""},
                                       CandidateSource{"ptraces_parent", ptraces_path, ""}});
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_EQ(report->candidates.size(), 3u);
  auto const& writes = report->candidates[0];
  auto const& honest = report->candidates[1];
  auto const& ptraces = report->candidates[2];
  EXPECT_EQ(to_string(writes.status), to_string(*violation)) << describe(writes);
  EXPECT_EQ(to_string(honest.status), to_string(CandidateStatus::ok)) << describe(honest);
  EXPECT_EQ(to_string(ptraces.status), to_string(*violation)) << describe(ptraces);
  EXPECT_FALSE(writes.message.empty()) << describe(writes);
  EXPECT_FALSE(ptraces.message.empty()) << describe(ptraces);

  std::vector<std::string> planted;
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator("/tmp", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    std::string const name = it->path().filename().string();
    if (name.rfind("kopt-cheat-planted-", 0) == 0) planted.push_back(it->path().string());
  }
  EXPECT_TRUE(planted.empty()) << "planted in /tmp: " << planted.front();
}

}  // namespace cheats_test
}  // namespace kopt::testing
