// build_run_report: from the store's rows of one run to a RunReport (no rendering here).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "kopt/run_report.hpp"
#include "kopt/runs.hpp"

namespace kopt {
namespace {

std::optional<double> number_at(nlohmann::json const& object, char const* key) {
  auto const it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::string string_at(nlohmann::json const& object, char const* key) {
  auto const it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<RunReportSize> sizes_of(nlohmann::json const& sizes) {
  std::vector<RunReportSize> result;
  if (!sizes.is_array()) return result;
  for (auto const& entry : sizes) {
    if (!entry.is_object()) continue;
    RunReportSize size;
    size.size = string_at(entry, "size");
    auto const verify_only = entry.find("verify_only");
    size.verify_only = verify_only != entry.end() && verify_only->is_boolean() && verify_only->get<bool>();
    size.status = string_at(entry, "status");
    size.message = string_at(entry, "message");
    size.max_abs_err = number_at(entry, "max_abs_err");
    size.max_rel_err = number_at(entry, "max_rel_err");
    size.median_us = number_at(entry, "median_us");
    size.iqr_us = number_at(entry, "iqr_us");
    size.reference_us = number_at(entry, "reference_us");
    size.speedup = number_at(entry, "speedup");
    size.pct_of_sol = number_at(entry, "pct_of_sol");
    size.achieved_gbps = number_at(entry, "achieved_gbps");
    size.achieved_gflops = number_at(entry, "achieved_gflops");
    result.push_back(std::move(size));
  }
  return result;
}

KnobValues knobs_of(nlohmann::json const& knobs) {
  KnobValues values;
  if (!knobs.is_object()) return values;
  for (auto const& [name, value] : knobs.items()) {
    values[name] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  return values;
}

std::string config_of(KnobValues const& knobs) {
  std::string config;
  for (auto const& [name, value] : knobs) {
    if (!config.empty()) config += ';';
    config += name + '=' + value;
  }
  return config;
}

std::string first_line(std::string const& text) {
  return text.substr(0, text.find('\n'));
}

// Distinct values in order of first appearance, "; "-joined.
std::string distinct(std::vector<std::string> const& values) {
  std::vector<std::string> seen;
  for (std::string const& value : values) {
    if (!value.empty() && std::find(seen.begin(), seen.end(), value) == seen.end()) seen.push_back(value);
  }
  return fmt::format("{}", fmt::join(seen, "; "));
}

std::vector<KnobChange> changes_between(KnobValues const& before, KnobValues const& after) {
  std::set<std::string, std::less<>> names;
  for (auto const& [name, value] : before) names.insert(name);
  for (auto const& [name, value] : after) names.insert(name);
  std::vector<KnobChange> changes;
  for (std::string const& name : names) {
    auto const old_value = before.find(name);
    auto const new_value = after.find(name);
    KnobChange change{name, std::nullopt, std::nullopt};
    if (old_value != before.end()) change.before = old_value->second;
    if (new_value != after.end()) change.after = new_value->second;
    if (change.before != change.after) changes.push_back(std::move(change));
  }
  return changes;
}

// The candidates' verdicts: the screen evaluation the search saw (the first one), else the latest one.
void attach_evaluations(RunReport& report, std::map<std::int64_t, std::size_t> const& position) {
  std::map<std::int64_t, bool> has_screen;
  for (RunReportEvaluation const& evaluation : report.evaluations) {
    auto const at = position.find(evaluation.candidate.value());
    if (at == position.end()) continue;
    RunReportCandidate& candidate = report.candidates[at->second];
    ++candidate.evaluations;
    bool const screen = evaluation.tier == "screen";
    bool& seen_screen = has_screen[evaluation.candidate.value()];
    if (screen && !seen_screen) {
      seen_screen = true;
      candidate.status = evaluation.status;
      candidate.message = evaluation.message;
      if (evaluation.status == CandidateStatus::ok) candidate.screen_speedup = evaluation.geomean_speedup;
    } else if (!seen_screen) {
      candidate.status = evaluation.status;
      candidate.message = evaluation.message;
    }
    if (evaluation.tier == "confirm" && evaluation.status == CandidateStatus::ok)
      candidate.confirm_speedup = evaluation.geomean_speedup;
  }
}

// Each candidate's current insights (every evaluation's, newest per source and size).
Status attach_insights(Store& store, RunReport& report, std::map<std::int64_t, std::size_t> const& position) {
  auto stored = store.insights_for_run(report.run);
  if (!stored) return stored.error();
  std::map<std::int64_t, std::vector<StoredInsight>> by_candidate;
  for (StoredInsight& insight : *stored)
    by_candidate[insight.candidate.value()].push_back(std::move(insight));
  for (auto const& [candidate, rows] : by_candidate) {
    auto const at = position.find(candidate);
    if (at == position.end()) continue;
    std::vector<CandidateInsight> const all = decode_insights(rows);
    report.candidates[at->second].insights = current_insights(all);
  }
  return Ok{};
}

RunReportLlmCall llm_call_of(StoredLlmCall const& stored) {
  LlmCallRecord const& call = stored.call;
  RunReportLlmCall result;
  result.id = stored.id;
  result.candidate = call.candidate;
  result.role = call.role;
  result.purpose = call.purpose;
  result.model = call.model;
  result.backend = call.backend;
  result.input_tokens = call.input_tokens;
  result.output_tokens = call.output_tokens;
  result.cost_usd = call.cost_usd;
  result.latency_ms = call.latency_ms;
  result.from_cache = call.from_cache;
  result.status = call.status;
  result.error = call.error;
  result.rationale = call.rationale;
  return result;
}

// Each candidate's LLM calls and the run's totals (left unset when the run made no call).
Status attach_llm_calls(Store& store, RunReport& report,
                        std::map<std::int64_t, std::size_t> const& position) {
  auto stored = store.llm_calls_for_run(report.run);
  if (!stored) return stored.error();
  if (stored->empty()) return Ok{};
  RunReportLlmTotals totals;
  bool priced = true;
  double cost = 0.0;
  for (StoredLlmCall const& row : *stored) {
    RunReportLlmCall call = llm_call_of(row);
    ++totals.calls;
    bool const failed = call.status != "ok";
    if (failed) ++totals.failed;
    if (call.cost_usd) {
      cost += *call.cost_usd;
    } else {
      priced = false;
    }
    totals.input_tokens += call.input_tokens.value_or(0);
    totals.output_tokens += call.output_tokens.value_or(0);
    auto const at = call.candidate ? position.find(call.candidate->value()) : position.end();
    if (at != position.end()) {
      report.candidates[at->second].llm_calls.push_back(std::move(call));
    } else if (failed) {
      totals.failed_without_candidate.push_back(std::move(call));
    }
  }
  if (priced) totals.cost_usd = cost;
  report.llm = std::move(totals);
  return Ok{};
}

std::vector<RunReportFailureGroup> group_failures(std::vector<RunReportCandidate> const& candidates) {
  std::map<CandidateStatus, RunReportFailureGroup> groups;
  for (RunReportCandidate const& candidate : candidates) {
    if (!candidate.status || *candidate.status == CandidateStatus::ok) continue;
    RunReportFailureGroup& group = groups[*candidate.status];
    group.status = *candidate.status;
    group.candidates.push_back({candidate.id, candidate.config, first_line(candidate.message)});
  }
  std::vector<RunReportFailureGroup> sorted;
  sorted.reserve(groups.size());
  for (auto& [status, group] : groups) sorted.push_back(std::move(group));
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](auto const& a, auto const& b) { return a.candidates.size() > b.candidates.size(); });
  return sorted;
}

std::vector<RunReportSize> screen_evidence(RunReport const& report, CandidateId candidate) {
  for (RunReportEvaluation const& evaluation : report.evaluations) {
    if (evaluation.candidate == candidate && evaluation.tier == "screen") return evaluation.sizes;
  }
  return {};
}

// Parent links back from the best to a candidate without a parent; when that is not the run's starting
// kernel (its first candidate without a parent), the chain starts there with an unlinked step.
std::vector<RunReportStep> chain_to(RunReport const& report, CandidateId best,
                                    std::map<std::int64_t, std::size_t> const& position) {
  std::vector<std::size_t> chain;  // positions, best first
  std::set<std::int64_t> visited;
  std::optional<CandidateId> at = best;
  while (at && visited.insert(at->value()).second) {
    auto const found = position.find(at->value());
    if (found == position.end()) break;
    chain.push_back(found->second);
    at = report.candidates[found->second].parent;
  }
  std::reverse(chain.begin(), chain.end());
  auto const root = std::find_if(report.candidates.begin(), report.candidates.end(),
                                 [](RunReportCandidate const& c) { return !c.parent; });
  if (root != report.candidates.end() && !chain.empty() && report.candidates[chain.front()].id != root->id) {
    chain.insert(chain.begin(), static_cast<std::size_t>(root - report.candidates.begin()));
  }
  std::vector<RunReportStep> steps;
  RunReportCandidate const* previous = nullptr;
  for (std::size_t const index : chain) {
    RunReportCandidate const& candidate = report.candidates[index];
    RunReportStep step;
    step.candidate = candidate.id;
    step.action = candidate.action;
    step.status = candidate.status;
    step.speedup_after = candidate.screen_speedup;
    step.evidence = screen_evidence(report, candidate.id);
    if (previous != nullptr) {
      step.from = previous->id;
      step.linked = candidate.parent == previous->id;
      step.changes = changes_between(previous->knobs, candidate.knobs);
      step.speedup_before = previous->screen_speedup;
      step.diff = diff_sources(previous->source, candidate.source);
    }
    steps.push_back(std::move(step));
    previous = &candidate;
  }
  return steps;
}

}  // namespace

Result<RunReport> build_run_report(Store& store, RunId run) {
  auto info = load_run_info(store, run);
  if (!info) return info.error();
  auto history = store.load_run(run);
  if (!history) return history.error();

  RunReport report;
  report.run = run;
  report.task_name = info->task_name;
  report.task_dir = info->task_dir.string();
  report.status = info->status;
  report.strategy = info->request.strategy;
  report.objective = std::string(to_string(info->request.objective));
  report.seed = info->request.seed;
  if (info->request.max_evaluations) report.budget_evaluations = *info->request.max_evaluations;
  if (info->request.max_wall_seconds > 0.0) report.budget_seconds = info->request.max_wall_seconds;
  report.source_path = info->request.source_path.string();
  report.flags = info->request.flags;
  report.started_at = history->run.started_at;
  report.finished_at = history->run.finished_at;

  std::map<std::int64_t, std::size_t> position;
  for (StoredCandidate const& stored : history->candidates) {
    RunReportCandidate candidate;
    candidate.id = stored.id;
    candidate.parent = stored.candidate.parent;
    candidate.action = stored.candidate.action;
    candidate.knobs = knobs_of(stored.candidate.knobs);
    candidate.config = config_of(candidate.knobs);
    if (stored.candidate.flags.is_array()) {
      for (auto const& flag : stored.candidate.flags)
        if (flag.is_string()) candidate.flags.push_back(flag.get<std::string>());
    }
    candidate.source = stored.candidate.source;
    position[stored.id.value()] = report.candidates.size();
    report.candidates.push_back(std::move(candidate));
  }

  std::vector<std::string> devices;
  std::vector<std::string> drivers;
  std::vector<std::string> toolkits;
  std::optional<double> best_so_far;
  for (StoredEvaluation const& stored : history->evaluations) {
    EvaluationRecord const& record = stored.evaluation;
    RunReportEvaluation evaluation;
    evaluation.index = report.evaluations.size() + 1;
    evaluation.id = stored.id;
    evaluation.candidate = stored.candidate;
    evaluation.tier = record.tier;
    evaluation.status = record.status;
    evaluation.message = record.message;
    evaluation.geomean_speedup = record.geomean_speedup;
    evaluation.sizes = sizes_of(record.sizes);
    if (record.status == CandidateStatus::ok && record.tier == "screen" && record.geomean_speedup &&
        (!best_so_far || *record.geomean_speedup > *best_so_far)) {
      best_so_far = record.geomean_speedup;
    }
    evaluation.best_so_far = best_so_far;
    devices.push_back(record.device_name);
    drivers.push_back(record.driver);
    toolkits.push_back(record.toolkit);
    report.evaluations.push_back(std::move(evaluation));
  }
  report.device = distinct(devices);
  report.driver = distinct(drivers);
  report.toolkit = distinct(toolkits);
  attach_evaluations(report, position);
  if (auto status = attach_insights(store, report, position); !status) return status.error();
  if (auto status = attach_llm_calls(store, report, position); !status) return status.error();
  report.failures = group_failures(report.candidates);

  auto best = store.best_verified_candidate(run);
  if (!best) return best.error();
  if (*best) {
    BestCandidate const& found = **best;
    RunReportBest chosen;
    chosen.candidate = found.candidate.id;
    chosen.knobs = knobs_of(found.candidate.candidate.knobs);
    chosen.config = config_of(chosen.knobs);
    chosen.tier = found.evaluation.evaluation.tier;
    chosen.geomean_speedup = found.evaluation.evaluation.geomean_speedup.value_or(0.0);
    chosen.objective_score = found.evaluation.evaluation.objective_score;
    chosen.sizes = sizes_of(found.evaluation.evaluation.sizes);
    chosen.source = found.candidate.candidate.source;
    report.steps = chain_to(report, chosen.candidate, position);
    report.best = std::move(chosen);
  }
  report.knob_effects = compute_knob_effects(report.candidates, report.best);
  return report;
}

}  // namespace kopt
