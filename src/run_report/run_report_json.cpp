// to_json(RunReport): schema "kopt.run_report/1". Unset optionals are null; non-finite numbers are the
// strings "inf", "-inf" and "nan" (as in kopt.eval/1).
#include <cmath>

#include "kopt/json_values.hpp"
#include "kopt/run_report.hpp"
#include "run_report/report_text.hpp"

namespace kopt {
namespace {

nlohmann::json optional_id(std::optional<CandidateId> id) {
  return id ? nlohmann::json(id->value()) : nlohmann::json(nullptr);
}

nlohmann::json optional_status(std::optional<CandidateStatus> status) {
  return status ? nlohmann::json(std::string(to_string(*status))) : nlohmann::json(nullptr);
}

nlohmann::json knobs_json(KnobValues const& knobs) {
  nlohmann::json json = nlohmann::json::object();
  for (auto const& [name, value] : knobs) json[name] = value;
  return json;
}

nlohmann::json sizes_json(std::vector<RunReportSize> const& sizes) {
  nlohmann::json list = nlohmann::json::array();
  for (RunReportSize const& size : sizes) {
    list.push_back({{"size", size.size},
                    {"verify_only", size.verify_only},
                    {"status", size.status},
                    {"message", size.message},
                    {"max_abs_err", optional_number_to_json(size.max_abs_err)},
                    {"max_rel_err", optional_number_to_json(size.max_rel_err)},
                    {"median_us", optional_number_to_json(size.median_us)},
                    {"iqr_us", optional_number_to_json(size.iqr_us)},
                    {"reference_us", optional_number_to_json(size.reference_us)},
                    {"speedup", optional_number_to_json(size.speedup)},
                    {"pct_of_sol", optional_number_to_json(size.pct_of_sol)},
                    {"achieved_gbps", optional_number_to_json(size.achieved_gbps)},
                    {"achieved_gflops", optional_number_to_json(size.achieved_gflops)}});
  }
  return list;
}

nlohmann::json diff_json(SourceDiff const& diff) {
  nlohmann::json hunks = nlohmann::json::array();
  for (DiffHunk const& hunk : diff.hunks) {
    nlohmann::json lines = nlohmann::json::array();
    for (DiffLine const& line : hunk.lines) lines.push_back(std::string(1, line.kind) + line.text);
    hunks.push_back({{"header", hunk.header}, {"lines", lines}});
  }
  return hunks;
}

nlohmann::json best_document(std::optional<RunReportBest> const& best) {
  if (!best) return nullptr;
  return {{"candidate", best->candidate.value()},
          {"config", best->config},
          {"knobs", knobs_json(best->knobs)},
          {"tier", best->tier},
          {"geomean_speedup", number_to_json(best->geomean_speedup)},
          {"objective_score", optional_number_to_json(best->objective_score)},
          {"sizes", sizes_json(best->sizes)},
          {"source", best->source}};
}

nlohmann::json insights_json(std::vector<CandidateInsight> const& insights) {
  nlohmann::json list = nlohmann::json::array();
  for (CandidateInsight const& insight : insights) list.push_back(to_json(insight));
  return list;
}

nlohmann::json optional_count(std::optional<std::int64_t> count) {
  return count ? nlohmann::json(*count) : nlohmann::json(nullptr);
}

nlohmann::json llm_calls_json(std::vector<RunReportLlmCall> const& calls) {
  nlohmann::json list = nlohmann::json::array();
  for (RunReportLlmCall const& call : calls) {
    list.push_back({{"id", call.id.value()},
                    {"candidate", optional_id(call.candidate)},
                    {"role", call.role},
                    {"purpose", call.purpose},
                    {"model", call.model},
                    {"backend", call.backend},
                    {"input_tokens", optional_count(call.input_tokens)},
                    {"output_tokens", optional_count(call.output_tokens)},
                    {"cost_usd", optional_number_to_json(call.cost_usd)},
                    {"latency_ms", number_to_json(call.latency_ms)},
                    {"from_cache", call.from_cache},
                    {"status", call.status},
                    {"error", call.error},
                    {"rationale", call.rationale}});
  }
  return list;
}

nlohmann::json llm_totals_json(std::optional<RunReportLlmTotals> const& totals) {
  if (!totals) return nullptr;
  return {{"calls", totals->calls},
          {"failed", totals->failed},
          {"cost_usd", optional_number_to_json(totals->cost_usd)},
          {"input_tokens", totals->input_tokens},
          {"output_tokens", totals->output_tokens},
          {"failed_without_candidate", llm_calls_json(totals->failed_without_candidate)}};
}

nlohmann::json candidates_json(std::vector<RunReportCandidate> const& candidates) {
  nlohmann::json list = nlohmann::json::array();
  for (RunReportCandidate const& candidate : candidates) {
    list.push_back({{"id", candidate.id.value()},
                    {"parent", optional_id(candidate.parent)},
                    {"action", candidate.action},
                    {"config", candidate.config},
                    {"knobs", knobs_json(candidate.knobs)},
                    {"flags", candidate.flags},
                    {"status", optional_status(candidate.status)},
                    {"message", candidate.message},
                    {"screen_speedup", optional_number_to_json(candidate.screen_speedup)},
                    {"confirm_speedup", optional_number_to_json(candidate.confirm_speedup)},
                    {"evaluations", candidate.evaluations},
                    {"insights", insights_json(candidate.insights)},
                    {"llm_calls", llm_calls_json(candidate.llm_calls)}});
  }
  return list;
}

nlohmann::json evaluations_json(std::vector<RunReportEvaluation> const& evaluations) {
  nlohmann::json list = nlohmann::json::array();
  for (RunReportEvaluation const& evaluation : evaluations) {
    list.push_back({{"index", evaluation.index},
                    {"id", evaluation.id.value()},
                    {"candidate", evaluation.candidate.value()},
                    {"tier", evaluation.tier},
                    {"status", std::string(to_string(evaluation.status))},
                    {"message", evaluation.message},
                    {"geomean_speedup", optional_number_to_json(evaluation.geomean_speedup)},
                    {"best_so_far", optional_number_to_json(evaluation.best_so_far)},
                    {"sizes", sizes_json(evaluation.sizes)}});
  }
  return list;
}

nlohmann::json steps_json(RunReport const& report) {
  nlohmann::json list = nlohmann::json::array();
  for (RunReportStep const& step : report.steps) {
    CandidateInsight const* insight = run_report_detail::candidate_insight(report, step.candidate);
    nlohmann::json changes = nlohmann::json::array();
    for (KnobChange const& change : step.changes) {
      changes.push_back({{"knob", change.name},
                         {"before", change.before ? nlohmann::json(*change.before) : nlohmann::json(nullptr)},
                         {"after", change.after ? nlohmann::json(*change.after) : nlohmann::json(nullptr)}});
    }
    list.push_back({{"candidate", step.candidate.value()},
                    {"from", optional_id(step.from)},
                    {"action", step.action},
                    {"linked", step.linked},
                    {"changes", changes},
                    {"speedup_before", optional_number_to_json(step.speedup_before)},
                    {"speedup_after", optional_number_to_json(step.speedup_after)},
                    {"status", optional_status(step.status)},
                    {"evidence", sizes_json(step.evidence)},
                    {"diff", diff_json(step.diff)},
                    // The candidate's primary insight in one line (its documents are under candidates).
                    {"analysis", insight != nullptr ? nlohmann::json(insight_headline(*insight))
                                                    : nlohmann::json(nullptr)}});
  }
  return list;
}

nlohmann::json failures_json(std::vector<RunReportFailureGroup> const& failures) {
  nlohmann::json list = nlohmann::json::array();
  for (RunReportFailureGroup const& group : failures) {
    nlohmann::json members = nlohmann::json::array();
    for (RunReportFailure const& failure : group.candidates) {
      members.push_back({{"candidate", failure.candidate.value()},
                         {"config", failure.config},
                         {"message", failure.message}});
    }
    list.push_back({{"status", std::string(to_string(group.status))},
                    {"count", group.candidates.size()},
                    {"candidates", members}});
  }
  return list;
}

nlohmann::json knob_effects_json(std::vector<KnobEffect> const& effects) {
  nlohmann::json list = nlohmann::json::array();
  for (KnobEffect const& effect : effects) {
    nlohmann::json values = nlohmann::json::array();
    for (KnobValueEffect const& value : effect.values) {
      values.push_back({{"value", value.value},
                        {"ok", value.ok},
                        {"failed", value.failed},
                        {"best", optional_number_to_json(value.best)},
                        {"median", optional_number_to_json(value.median)},
                        {"around_best", optional_number_to_json(value.around_best)}});
    }
    list.push_back(
        {{"knob", effect.knob},
         {"best_value", effect.best_value ? nlohmann::json(*effect.best_value) : nlohmann::json(nullptr)},
         {"spread", optional_number_to_json(effect.spread)},
         {"values", values}});
  }
  return list;
}

}  // namespace

nlohmann::json run_report_detail::best_json(std::optional<RunReportBest> const& best) {
  return best_document(best);
}

nlohmann::json to_json(RunReport const& report) {
  return {{"schema", std::string(kRunReportSchema)},
          {"run", report.run.value()},
          {"task", report.task_name},
          {"task_dir", report.task_dir},
          {"status", report.status},
          {"strategy", report.strategy},
          {"objective", report.objective},
          {"seed", report.seed},
          {"budget",
           {{"evaluations", report.budget_evaluations ? nlohmann::json(*report.budget_evaluations)
                                                      : nlohmann::json(nullptr)},
            {"seconds", optional_number_to_json(report.budget_seconds)}}},
          {"source_path", report.source_path},
          {"flags", report.flags},
          {"device", report.device},
          {"driver", report.driver},
          {"toolkit", report.toolkit},
          {"started_at", report.started_at},
          {"finished_at", report.finished_at ? nlohmann::json(*report.finished_at) : nlohmann::json(nullptr)},
          {"best", best_document(report.best)},
          {"candidates", candidates_json(report.candidates)},
          {"evaluations", evaluations_json(report.evaluations)},
          {"steps", steps_json(report)},
          {"failures", failures_json(report.failures)},
          {"knob_effects", knob_effects_json(report.knob_effects)},
          {"llm", llm_totals_json(report.llm)}};
}

}  // namespace kopt
