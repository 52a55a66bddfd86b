// What the bottleneck analysis found about one evaluated candidate, kept with the evaluation in the store,
// shown in `kopt report` next to each step and handed to proposers (docs/analysis.md, "Handing findings to
// proposers"). A CandidateInsight is a plain value: one size case, one source (the cheap roofline analysis
// that every evaluation gets, or a `kopt profile` under Nsight Compute), its classification and findings.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/analysis.hpp"
#include "kopt/measure.hpp"
#include "kopt/result.hpp"
#include "kopt/strong_id.hpp"

namespace kopt {

inline constexpr std::string_view kInsightSchema = "kopt.insight/1";

// Where an insight came from.
namespace insight_source {
inline constexpr std::string_view roofline = "roofline";  // work model + median + ceilings, every evaluation
inline constexpr std::string_view ncu = "ncu";            // Nsight Compute metrics (`kopt profile`)
}  // namespace insight_source

struct CandidateInsight {
  std::string size;    // the size case analysed
  std::string source;  // insight_source::roofline or insight_source::ncu
  Classification classification;
  std::vector<Finding> findings;     // highest severity first
  std::optional<double> pct_of_sol;  // work-model speed-of-light bound / median x 100, when known
};

// ---- JSON ("kopt.insight/1"; the classification and findings have the shape of kopt.profile/1's) ------
nlohmann::json to_json(Classification const& classification);
nlohmann::json to_json(Finding const& finding);
nlohmann::json to_json(CandidateInsight const& insight);
// Errors (invalid_spec) name `origin` and the field: "insight: findings[1]: severity: expected one of
// info, low, medium, high".
Result<Classification> classification_from_json(nlohmann::json const& json, std::string_view origin);
Result<Finding> finding_from_json(nlohmann::json const& json, std::string_view origin);
Result<CandidateInsight> insight_from_json(nlohmann::json const& json, std::string_view origin = "insight");

// ---- choosing and describing ------------------------------------------------------------------------
// The insights that describe a candidate now, from everything recorded for it (oldest first): the newest
// per (source, size); Nsight Compute ones first, then roofline ones; sizes in order of first appearance.
std::vector<CandidateInsight> current_insights(std::span<CandidateInsight const> oldest_first);
// The one insight to show in a line: the first Nsight Compute one, else the last roofline one (the largest
// timed size, since sizes come in the task's order); nullptr when there is none.
CandidateInsight const* primary_insight(std::span<CandidateInsight const> insights) noexcept;
// "memory-bound (DRAM)", "latency-bound", "not classified" (basis none).
std::string bottleneck_text(Classification const& classification);
// One line: "memory-bound (DRAM), 61 % SOL; register_spills: high, tail_effect: low".
std::string insight_headline(CandidateInsight const& insight, std::size_t max_findings = 3);

// For proposers (the strategy library, the LLM prompts). Plain text: per insight the bottleneck sentence,
// then every finding by severity with its evidence numbers and strategy names, then the suggested
// strategies with their catalog descriptions. Whole lines only: when the text would pass max_chars, the
// lines that do not fit are left out and a last line says so (the result never exceeds max_chars).
std::string describe_for_prompt(std::span<CandidateInsight const> insights, std::size_t max_chars);
// Strategy names of the findings, most severe finding first (Nsight Compute insights before roofline ones
// at equal severity), each name once.
std::vector<std::string> suggested_strategies(std::span<CandidateInsight const> insights);

// The one interface through which search nodes (candidates) hand their findings on: the strategy library
// and the LLM proposers ask it for the candidate they expand. The store-backed one
// is make_store_insight_source (kopt/run_log.hpp).
class InsightSource {
 public:
  virtual ~InsightSource() = default;
  // current_insights of everything recorded for the candidate; empty when it has none.
  virtual Result<std::vector<CandidateInsight>> insights(CandidateId candidate) = 0;
};

// ---- the cheap builder (kopt_eval, src/eval/insight_builder.cpp) -------------------------------------
struct CandidateReport;
struct TaskSpec;
// One roofline insight per timed ok size case of an ok report (none for a failed one): classify_roofline
// and the tools that need no profiler, from the work model at that size (the report's bytes and FLOPs, else
// the task's work model), the measured median, `ceilings`, the task's precision (16-bit floats allow tensor
// cores) and ptxas's resource usage (registers, spills, shared memory, stack). Launches and kernel time per
// call come from the size's kernel activity (CUPTI) when recorded; otherwise kernel mode counts one launch
// per call and launcher mode leaves them unknown.
std::vector<CandidateInsight> build_roofline_insights(TaskSpec const& task, CandidateReport const& report,
                                                      DeviceCeilings const& ceilings);

}  // namespace kopt
