// The report of one `kopt optimize` run (`kopt report RUN_ID`): what the store recorded, gathered into a
// value (RunReport) and rendered as a self-contained HTML page (inline CSS and SVG, no network), a short
// Markdown summary for terminals and pull requests, or JSON (schema "kopt.run_report/1"). The report of a
// library session (`kopt report --session ID`) gathers its runs' reports: SessionReport. The listing of a
// store's runs (`kopt runs`) is rendered here too. docs/report.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/candidate_status.hpp"
#include "kopt/insight.hpp"
#include "kopt/result.hpp"
#include "kopt/runs.hpp"
#include "kopt/store.hpp"
#include "kopt/strong_id.hpp"

namespace kopt {

inline constexpr std::string_view kRunReportSchema = "kopt.run_report/1";

using KnobValues = std::map<std::string, std::string, std::less<>>;

// One size case of an evaluation, as recorded (unset: not measured or not finite).
struct RunReportSize {
  std::string size;
  bool verify_only = false;
  std::string status;
  std::string message;
  std::optional<double> max_abs_err;
  std::optional<double> max_rel_err;
  std::optional<double> median_us;  // the candidate
  std::optional<double> iqr_us;
  std::optional<double> reference_us;
  std::optional<double> speedup;
  std::optional<double> pct_of_sol;  // speed-of-light bound / median x 100 (work model, device ceilings)
  std::optional<double> achieved_gbps;
  std::optional<double> achieved_gflops;
};

// One evaluation of the run, in the order the store recorded them.
struct RunReportEvaluation {
  std::size_t index = 0;  // 1-based position in the run
  EvaluationId id;
  CandidateId candidate;
  std::string tier;  // screen or confirm
  CandidateStatus status = CandidateStatus::ok;
  std::string message;
  std::optional<double> geomean_speedup;
  std::optional<double> best_so_far;  // best ok screen geomean up to and including this evaluation
  std::vector<RunReportSize> sizes;
};

// One call to a language model (`kopt generate`), as the store's llm_calls row holds it: the reply it made
// became the candidate it is attached to (the step's rationale, cost and latency).
struct RunReportLlmCall {
  LlmCallId id;
  std::optional<CandidateId> candidate;  // unset: the call made no candidate (it failed, or held no kernel)
  std::string role;                      // generator, coder, planner, judge
  std::string purpose;                   // "softmax_warp_per_row, repair 1"
  std::string model;
  std::string backend;
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
  std::optional<double> cost_usd;  // unset: the model has no price
  double latency_ms = 0.0;
  bool from_cache = false;
  std::string status;  // "ok" or "error"
  std::string error;
  std::string rationale;  // the reply's prose (reply_prose), "" when none
};

// The run's LLM calls in total (set only when the run made any).
struct RunReportLlmTotals {
  std::size_t calls = 0;
  std::size_t failed = 0;          // status "error"
  std::optional<double> cost_usd;  // the sum; unset unless every call has a price
  std::int64_t input_tokens = 0;   // the sums of the counts reported
  std::int64_t output_tokens = 0;
  std::vector<RunReportLlmCall> failed_without_candidate;  // failed calls that made no candidate, in order
};

// One candidate of the run and its verdict: its screen evaluation (the search's), else its latest one.
struct RunReportCandidate {
  CandidateId id;
  std::optional<CandidateId> parent;
  std::string action;  // "" for seeds and jumps
  std::string config;  // the knobs as NAME=value;NAME=value
  KnobValues knobs;
  std::vector<std::string> flags;
  std::string source;
  std::optional<CandidateStatus> status;  // unset: never evaluated
  std::string message;
  std::optional<double> screen_speedup;
  std::optional<double> confirm_speedup;
  std::size_t evaluations = 0;
  // What the analysis found (current_insights of all its evaluations: Nsight Compute ones first, then the
  // roofline ones per size); empty when none was recorded (failed candidates, stores from before insights).
  std::vector<CandidateInsight> insights;
  // The LLM calls whose reply became this candidate (llm_calls.candidate_id), in the order they were made;
  // empty for candidates that no model wrote.
  std::vector<RunReportLlmCall> llm_calls;
};

// A unified line diff (3 lines of context) of a candidate's source against its parent's.
struct DiffLine {
  char kind = ' ';  // ' ' context, '-' only in the old text, '+' only in the new text
  std::string text;
};
struct DiffHunk {
  std::string header;  // "@@ -a,b +c,d @@"
  std::vector<DiffLine> lines;
};
struct SourceDiff {
  std::vector<DiffHunk> hunks;  // empty: the texts are equal
};
SourceDiff diff_sources(std::string_view before, std::string_view after);
std::string to_unified_text(SourceDiff const& diff);  // the hunks as `diff -u` prints them, no file header

struct KnobChange {
  std::string name;
  std::optional<std::string> before;  // unset: the knob is new
  std::optional<std::string> after;   // unset: the knob was dropped
};

// One link of the chain from the starting kernel to the best candidate.
struct RunReportStep {
  CandidateId candidate;
  std::optional<CandidateId> from;  // unset for the starting kernel
  std::string action;               // the search action ("" for the start or a jump without a parent)
  bool linked = true;               // false: no parent recorded, compared with the starting kernel instead
  std::vector<KnobChange> changes;
  std::optional<double> speedup_before;  // screen geomean of `from`
  std::optional<double> speedup_after;   // screen geomean of `candidate`
  std::optional<CandidateStatus> status;
  std::vector<RunReportSize> evidence;  // the per-size results behind speedup_after
  SourceDiff diff;                      // against `from`
};

struct RunReportFailure {
  CandidateId candidate;
  std::string config;
  std::string message;  // the first line
};
struct RunReportFailureGroup {
  CandidateStatus status = CandidateStatus::ok;
  std::vector<RunReportFailure> candidates;
};

// The best ok candidate, chosen as `kopt export` does: the confirm tier first, else the screen tier.
struct RunReportBest {
  CandidateId candidate;
  std::string config;
  KnobValues knobs;
  std::string tier;
  double geomean_speedup = 0.0;      // runtime
  std::vector<RunReportSize> sizes;  // of the evaluation that made it the best
  std::string source;
  std::optional<double> objective_score;  // the run's objective score (energy, composite); unset for runtime
};

// How one value of one knob fared across the run's candidates (all numbers are screen-tier geomean
// speedups over the reference, so that every candidate is measured the same way).
struct KnobValueEffect {
  std::string value;
  std::size_t ok = 0;            // candidates with this value that passed verification
  std::size_t failed = 0;        // any other status (candidates never evaluated count in neither)
  std::optional<double> best;    // the largest screen geomean of the ok candidates with this value
  std::optional<double> median;  // their median (unset: no ok candidate with a finite, positive geomean)
  // The best candidate with only this knob changed to `value`, when evaluated ok (for the best's own
  // value: the best's screen geomean): the sensitivity around the optimum.
  std::optional<double> around_best;
};

// Which knobs mattered: per knob, its values (numbers in numeric order, other values after them in the
// order they first appear) and the spread of their medians.
struct KnobEffect {
  std::string knob;
  std::vector<KnobValueEffect> values;
  std::optional<std::string> best_value;  // the best candidate's value of this knob
  std::optional<double> spread;  // largest median / smallest median (>= 1); unset: no value has an ok median
};

// Every knob of the candidates, largest spread first (knobs without a spread last, then by name). Empty
// for fewer than two candidates or no knobs. `best` gives around_best and best_value.
std::vector<KnobEffect> compute_knob_effects(std::vector<RunReportCandidate> const& candidates,
                                             std::optional<RunReportBest> const& best);

struct RunReport {
  RunId run;
  std::string task_name;
  std::string task_dir;
  std::string status;  // running, finished, interrupted
  std::string strategy;
  std::string objective = "runtime";  // runtime, energy, composite (docs/optimize.md, "Objectives")
  std::uint64_t seed = 0;
  std::optional<std::size_t> budget_evaluations;
  std::optional<double> budget_seconds;  // unset or 0: no limit
  std::string source_path;
  std::vector<std::string> flags;
  std::string device;  // the devices, drivers and toolkits the evaluations ran on ("; "-joined if several)
  std::string driver;
  std::string toolkit;
  std::string started_at;
  std::optional<std::string> finished_at;
  std::optional<RunReportBest> best;
  std::vector<RunReportCandidate> candidates;    // in insertion order
  std::vector<RunReportEvaluation> evaluations;  // in insertion order
  std::vector<RunReportStep> steps;              // from the starting kernel to the best; empty without a best
  std::vector<RunReportFailureGroup> failures;   // by status, largest group first
  std::vector<KnobEffect> knob_effects;          // largest spread first (compute_knob_effects)
  std::optional<RunReportLlmTotals> llm;         // unset: the run made no LLM call
};

// Reads run `run` from the store. Errors: not_found for an unknown run (the message names the store),
// invalid_spec when the run was not recorded by `kopt optimize`.
Result<RunReport> build_run_report(Store& store, RunId run);

// A complete HTML document: no scripts, no external resources; all text from the store is escaped.
std::string render_run_html(RunReport const& report);
// The inline SVG plot of the HTML page: best-so-far screen geomean against the evaluation index, every
// evaluation one marker (ok: dot, confirm: diamond, failed: red x at the bottom), each with data-eval="i".
std::string render_progress_svg(RunReport const& report);
// About 15 lines: headline, per-size table of the best, the steps, failure counts.
std::string render_run_markdown(RunReport const& report);
nlohmann::json to_json(RunReport const& report);

// ---- a library session (`kopt report --session ID`) ----------------------------------------------------

inline constexpr std::string_view kSessionReportSchema = "kopt.session_report/1";

// One run of the session: its part (library strategy, phase) and its whole report.
struct SessionReportRun {
  std::string strategy;
  std::string phase;  // screen, deepen
  RunReport report;
};

struct SessionReport {
  SessionId session;
  std::string kind;  // library
  std::string task_name;
  std::string task_dir;
  std::string status;  // running, finished, interrupted
  std::string started_at;
  std::optional<std::string> finished_at;
  nlohmann::json options = nlohmann::json::object();  // the proposer's options, as recorded
  std::vector<SessionReportRun> runs;                 // oldest first
  // The session's best verified candidate, as `kopt export --session` chooses it (confirm tier first, else
  // screen, over all its runs): the index in `runs` of the run that holds it; unset: none passed.
  std::optional<std::size_t> best_run;
};

// Reads session `session` and the report of each of its runs. Errors: not_found naming the store.
Result<SessionReport> build_session_report(Store& store, SessionId session);
// A complete HTML document: the runs side by side, the overall best (as the run page shows a best), and
// each run's progress plot.
std::string render_session_html(SessionReport const& report);
// A headline, one table row per run, the best's per-size table.
std::string render_session_markdown(SessionReport const& report);
nlohmann::json to_json(SessionReport const& report);

// ---- the runs of a store (`kopt runs`) ------------------------------------------------------------------

// Schema kopt.runs/2: the sessions with their runs, and the runs of no session.
nlohmann::json runs_to_json(RunsListing const& listing);
// Oldest first; a session is one line with its runs indented under it.
std::string render_runs(RunsListing const& listing);

}  // namespace kopt
