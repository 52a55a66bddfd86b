// The live analysis test set (issue #4): every purpose-built kernel in tests/gpu/analysis_probes/ is a
// kopt candidate of tests/gpu/tasks/analysis_probes, profiled by `kopt profile`'s code path (two ncu stages,
// ptxas facts, the SASS). Each probe's header says what kopt must find:
//   // expect: <bottleneck class> [dram|l2|l1]   the stage-1 classification
//   // flags: <tool> ...                           flagged at medium or more; no other tool says high
//   // flags: (none at high severity)              no tool says high
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "kopt/eval.hpp"
#include "kopt/profile_candidate.hpp"
#include "kopt/task.hpp"

namespace kopt::testing {
namespace analysis_probes_test {

struct Expectation {
  std::string bottleneck;  // empty: not checked
  std::string memory_level;
  std::set<std::string> tools;  // empty with `flags` given: no tool may say high
  bool flags_given = false;
};

// The words after "// <key>:" on the header line that has it.
std::vector<std::string> header_words(std::string const& text, std::string const& key) {
  std::istringstream lines(text);
  std::string line;
  std::string const marker = "// " + key + ":";
  while (std::getline(lines, line)) {
    if (line.rfind(marker, 0) != 0) continue;
    std::istringstream words(line.substr(marker.size()));
    std::vector<std::string> out;
    for (std::string word; words >> word;) out.push_back(word);
    return out;
  }
  return {};
}

Expectation expectation_of(std::string const& text) {
  Expectation e;
  auto const expect = header_words(text, "expect");
  if (!expect.empty()) e.bottleneck = expect[0];
  if (expect.size() > 1) e.memory_level = expect[1];
  auto const flags = header_words(text, "flags");
  e.flags_given = !flags.empty();
  for (auto const& word : flags) {
    if (word.front() != '(')
      e.tools.insert(word);
    else
      break;
  }
  return e;
}

std::string describe(CandidateProfile const& p) {
  std::string text = p.candidate + ": " + std::string(to_string(p.classification.bottleneck)) + " — " +
                     p.classification.summary + "\n";
  for (auto const& f : p.findings)
    text += "  [" + std::string(to_string(f.severity)) + "] " + f.tool + ": " + f.explanation + "\n";
  for (auto const& note : p.notes) text += "  note: " + note + "\n";
  return text;
}

TEST(AnalysisProbes, EveryProbeIsFlaggedByItsToolAndByNoUnrelatedToolAtHighSeverity) {
  auto task = load_task(source_path("tests/gpu/tasks/analysis_probes"));
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto evaluator = Evaluator::create(gpu_test_options());
  if (gpu_missing(evaluator)) GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;

  std::vector<std::filesystem::path> probes;
  for (auto const& entry : std::filesystem::directory_iterator(source_path("tests/gpu/analysis_probes"))) {
    if (entry.path().extension() == ".cu") probes.push_back(entry.path());
  }
  std::sort(probes.begin(), probes.end());
  ASSERT_GE(probes.size(), 10u);

  for (auto const& path : probes) {
    SCOPED_TRACE(path.filename().string());
    std::string const text = read_text(path);
    Expectation const expected = expectation_of(text);
    ASSERT_TRUE(!expected.bottleneck.empty() || expected.flags_given) << "probe header says nothing to check";
    CandidateSource candidate{path.stem().string(), path, text, {}};
    auto profile = profile_candidate(**evaluator, *task, candidate, ProfileOptions{});
    ASSERT_TRUE(profile.ok()) << profile.error().message;
    ASSERT_EQ(profile->status, CandidateStatus::ok) << profile->message;
    std::cout << "[probe] " << describe(*profile) << std::flush;  // the record for docs/analysis.md
    if (!expected.bottleneck.empty()) {
      EXPECT_EQ(to_string(profile->classification.bottleneck), expected.bottleneck) << describe(*profile);
    }
    if (!expected.memory_level.empty()) {
      ASSERT_TRUE(profile->classification.memory_level.has_value()) << describe(*profile);
      EXPECT_EQ(to_string(*profile->classification.memory_level), expected.memory_level)
          << describe(*profile);
    }
    if (!expected.flags_given) continue;
    bool flagged = expected.tools.empty();
    for (auto const& finding : profile->findings) {
      if (expected.tools.count(finding.tool) > 0) {
        if (finding.severity >= Severity::medium) flagged = true;
      } else {
        EXPECT_LT(finding.severity, Severity::high) << "unrelated tool " << finding.tool << " says high\n"
                                                    << describe(*profile);
      }
    }
    EXPECT_TRUE(flagged) << "not flagged by its tool\n" << describe(*profile);
  }
}

}  // namespace analysis_probes_test
}  // namespace kopt::testing
