// Shared by the run_report tests: a store holding real optimize runs of examples/vector_add, made with
// the fake evaluator (no GPU), and a small hand-made RunReport for the renderers.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "kopt/optimize.hpp"
#include "kopt/run_report.hpp"
#include "kopt/store.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt::test {

// The vector_add landscape plus compile errors at VEC=1 && BLOCK=1024 (with a two-line message).
inline FakeResult landscape_with_compile_errors(
    std::map<std::string, std::string, std::less<>> const& knobs) {
  if (knob(knobs, "VEC") == 1 && knob(knobs, "BLOCK") == 1024)
    return FakeResult{
        CandidateStatus::compile_error, "error: too many resources <for> BLOCK\nsecond line", {}, {}};
  return landscape(knobs);
}

// A single peak away from the kernel's defaults (BLOCK=256, VEC=4, ITEMS=2): BLOCK=512, VEC=2, ITEMS=1,
// so that a hill climber takes several steps from its start.
inline FakeResult shifted_landscape(std::map<std::string, std::string, std::less<>> const& knobs) {
  double const distance = std::abs(std::log2(static_cast<double>(knob(knobs, "BLOCK"))) - 9.0) +
                          std::abs(std::log2(static_cast<double>(knob(knobs, "VEC"))) - 1.0) * 1.5 +
                          std::abs(std::log2(static_cast<double>(knob(knobs, "ITEMS"))) - 0.0) * 0.7;
  double const speedup = 2.5 / (1.0 + 0.25 * distance);
  return FakeResult{CandidateStatus::ok, "", {100.0 / speedup, 1000.0 / speedup}, {100.0, 1000.0}};
}

struct RunFixture : ::testing::Test {
  // A finished run with `strategy` on the vector_add tunable kernel; returns its id.
  RunId make_run(std::string const& strategy, std::size_t budget, std::uint64_t seed = 7,
                 FakeFunction function = landscape_with_compile_errors) {
    auto loaded = load_task(kTaskDir);
    EXPECT_TRUE(loaded) << loaded.error().message;
    if (!store) {
      auto opened = Store::open(dir.path() / "kopt.db");
      EXPECT_TRUE(opened) << opened.error().message;
      store.emplace(std::move(*opened));
    }
    OptimizeOptions options;
    options.strategy = strategy;
    options.max_evaluations = budget;
    options.seed = seed;
    options.source_path = kTunable;
    FakeCandidateEvaluator fake(std::move(function));
    auto result = optimize(*loaded, read_text(kTunable), options, fake, *store);
    EXPECT_TRUE(result) << result.error().message;
    return result ? result->run : RunId(0);
  }
  RunReport report_of(RunId run) {
    auto report = build_run_report(*store, run);
    EXPECT_TRUE(report) << report.error().message;
    return report ? std::move(*report) : RunReport{};
  }
  TempDir dir;
  std::optional<Store> store;
};

inline std::size_t count_of(std::string const& text, std::string const& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size()))
    ++count;
  return count;
}

}  // namespace kopt::test
