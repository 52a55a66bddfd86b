// Shared by the generate tests: the softmax example, the strategy library, replies holding kernels, and an
// evaluator that answers from a marker line in each kernel (no GPU).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kopt/generate.hpp"
#include "kopt/generate_output.hpp"
#include "support/fake_candidate_evaluator.hpp"

namespace kopt::test {

inline std::filesystem::path const kSourceDir = KOPT_SOURCE_DIR;
inline std::filesystem::path const kSoftmaxDir = kSourceDir / "examples" / "softmax";

inline std::string read_file(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline TaskSpec softmax_task() {
  auto task = load_task(kSoftmaxDir);
  EXPECT_TRUE(task) << task.error().message;
  return task ? *task : TaskSpec{};
}

inline StrategyLibrary strategy_library() {
  auto library = load_strategy_library(kSourceDir / "strategies");
  EXPECT_TRUE(library) << library.error().message;
  return library ? *library : StrategyLibrary{};
}

inline GenerateOptions generate_options() {
  GenerateOptions options;
  options.intent = "row-wise softmax over C columns, numerically stable";
  options.prompt.prompts_dir = kSourceDir / "prompts";
  options.backend_kind = "test";
  options.model = "test-model";
  return options;
}

// A reply holding one kernel whose first line tells MarkerEvaluator what to answer: "ok 2.5",
// "compile_error", "wrong_output", ...
inline std::string kernel_reply(std::string const& verdict, std::string const& tag = "") {
  return "Here is the kernel.\n\n```cuda\n// fake: " + verdict + "\n// " + tag +
         "\nextern \"C\" void softmax(float* out, const float* in, int N, int C) {}\n```\n";
}

inline KernelTiming fake_timing(double median_us) {
  KernelTiming timing;
  timing.us.count = 10;
  timing.us.median = median_us;
  timing.us.mean = median_us;
  timing.us.min = median_us;
  timing.us.max = median_us;
  timing.us.q1 = median_us;
  timing.us.q3 = median_us;
  return timing;
}

// Answers each kernel from its "// fake: <status> [speedup]" line (no line: `unmarked`); remembers what it
// was given.
class MarkerEvaluator final : public CandidateEvaluator {
 public:
  struct Seen {
    std::string name;
    std::string source;
    TimingTier tier = TimingTier::screen;
  };

  EvaluationTarget target() const override { return FakeCandidateEvaluator::fake_target(); }

  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& candidates,
                                                TimingTier tier) override {
    std::vector<CandidateReport> reports;
    for (CandidateInput const& candidate : candidates) {
      seen.push_back(Seen{candidate.name, candidate.source, tier});
      if (fail_names.count(candidate.name) > 0) {
        reports.push_back(report_for(task, candidate, CandidateStatus::wrong_output, 0.0));
        continue;
      }
      CandidateStatus status = unmarked;
      double speedup = unmarked_speedup;
      auto const marker = candidate.source.find("// fake: ");
      if (marker != std::string::npos) {
        std::istringstream line(
            candidate.source.substr(marker + 9, candidate.source.find('\n', marker) - marker - 9));
        std::string word;
        line >> word >> speedup;
        status = candidate_status_from_string(word).value_or(CandidateStatus::compile_error);
      }
      reports.push_back(report_for(task, candidate, status, speedup));
    }
    return reports;
  }

  std::vector<Seen> seen;
  std::set<std::string> fail_names;  // candidates answered wrong_output whatever their marker
  CandidateStatus unmarked = CandidateStatus::compile_error;  // the answer for a kernel without a marker
  double unmarked_speedup = 2.0;

 private:
  static CandidateReport report_for(TaskSpec const& task, CandidateInput const& candidate,
                                    CandidateStatus status, double speedup) {
    CandidateReport report;
    report.name = candidate.name;
    report.mode = candidate.mode;
    report.status = status;
    if (status == CandidateStatus::compile_error) {
      report.message = "nvcc failed";
      report.diagnostics = "kernel.cu(7): error: identifier \"blockDimx\" is undefined\n1 error detected";
    } else if (status == CandidateStatus::wrong_output) {
      report.message = "output 'out' differs from the reference on size odd: 1001 of 37037 elements";
    }
    for (SizeCase const& size : task.sizes) {
      SizeResult result;
      result.size = size.name;
      result.verify_only = size.verify_only;
      result.status = status;
      if (status == CandidateStatus::wrong_output) {
        result.max_abs_err = 0.5;
        result.mismatches = 1001;
      }
      if (status == CandidateStatus::ok && !size.verify_only) {
        result.reference = fake_timing(100.0 * speedup);
        result.candidate = fake_timing(100.0);
        result.speedup = speedup;
      }
      report.sizes.push_back(std::move(result));
    }
    if (status == CandidateStatus::ok) report.geomean_speedup = speedup;
    return report;
  }
};

// Every byte of the files in `dir` (the database and its WAL) as one string.
inline std::string folder_bytes(std::filesystem::path const& dir) {
  std::string all;
  for (auto const& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file()) all += read_file(entry.path());
  }
  return all;
}

inline std::vector<std::string> statuses(GenerateResult const& result) {
  std::vector<std::string> out;
  for (auto const& attempt : result.attempts) out.push_back(attempt.status);
  return out;
}

}  // namespace kopt::test
