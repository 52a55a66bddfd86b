// dispatch_by_size: the runs' verified configurations combined into one kernel per size case, evaluated as
// one more run (docs/strategies.md, "Dispatch by size"); used by the library's sessions and kopt optimize
// --from.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <map>
#include <set>

#include "kopt/propose.hpp"
#include "kopt/store.hpp"

namespace kopt {
namespace {

// The session's verified kernels, each distinct text once, with their screen speedups per timed size case.
Result<std::vector<ScreenedCandidate>> screened_candidates(Store& store,
                                                           std::vector<StrategyRun> const& runs) {
  std::vector<ScreenedCandidate> screened;
  std::set<std::string> seen;
  for (StrategyRun const& run : runs) {
    auto history = store.load_run(run.result.run);
    if (!history) return history.error();
    std::map<std::int64_t, Candidate const*> by_id;
    for (StoredCandidate const& c : history->candidates) by_id[c.id.value()] = &c.candidate;
    for (StoredEvaluation const& e : history->evaluations) {
      EvaluationRecord const& evaluation = e.evaluation;
      if (evaluation.tier != "screen" || evaluation.status != CandidateStatus::ok) continue;
      auto const stored = by_id.find(e.candidate.value());
      if (stored == by_id.end() || !seen.insert(stored->second->key.value()).second) continue;
      Candidate const& c = *stored->second;
      ScreenedCandidate entry;
      entry.strategy = run.strategy;
      std::vector<std::string> knobs;
      for (auto const& [name, value] : c.knobs.items()) {
        std::string const text = value.is_string() ? value.get<std::string>() : value.dump();
        entry.input.knobs[name] = text;
        knobs.push_back(name + "=" + text);
      }
      entry.input.name = knobs.empty() ? "defaults" : fmt::format("{}", fmt::join(knobs, ";"));
      entry.input.source = c.source;
      for (auto const& flag : c.flags) {
        if (flag.is_string()) entry.input.flags.push_back(flag.get<std::string>());
      }
      entry.input.mode = c.mode == "launcher" ? CandidateMode::launcher : CandidateMode::kernel;
      for (auto const& size : evaluation.sizes) {
        auto const speedup = size.find("speedup");
        if (size.value("verify_only", false) || size.value("status", std::string()) != "ok" ||
            speedup == size.end() || !speedup->is_number())
          continue;
        entry.speedups[size.value("size", std::string())] = speedup->get<double>();
      }
      screened.push_back(std::move(entry));
    }
  }
  return screened;
}

}  // namespace

Result<SizeDispatchOutcome> dispatch_by_size(TaskSpec const& task, std::vector<StrategyRun> const& runs,
                                             OptimizeOptions const& options, double min_gain,
                                             CandidateEvaluator& evaluator, Store& store) {
  SizeDispatchOutcome outcome;
  auto screened = screened_candidates(store, runs);
  if (!screened) return screened.error();
  // The reference joins as one more variant where it can, for the size cases no kernel beats it on.
  std::size_t const kernels = screened->size();
  if (auto reference = reference_variant(task)) screened->push_back(std::move(*reference));
  auto choice = plan_size_dispatch(task, *screened, min_gain);
  Result<CandidateInput> candidate = make_error(ErrorCode::invalid_argument, "no plan");
  if (choice.plan) candidate = size_dispatch_candidate(task, *choice.plan);
  if (choice.plan && !candidate && screened->size() > kernels) {
    // The reference's text cannot live beside the kernels (an extern "C" { } block, another architecture):
    // the plan is made again without it.
    screened->pop_back();
    choice = plan_size_dispatch(task, *screened, min_gain);
    if (choice.plan) candidate = size_dispatch_candidate(task, *choice.plan);
  }
  if (!choice.plan) {
    outcome.summary = "no size dispatch: " + choice.reason;
    return outcome;
  }
  SizeDispatchPlan const& plan = *choice.plan;
  std::vector<std::string> parts;
  std::vector<std::string> names;
  for (auto const& v : plan.variants) {
    parts.push_back(fmt::format("{} {} for {}", v.strategy, v.input.name, fmt::join(v.sizes, ", ")));
    names.push_back(v.strategy);
  }
  std::string const summary =
      fmt::format("{} (predicted {:.3g}x against {:.3g}x for {} alone)", fmt::join(parts, "; "),
                  plan.predicted_speedup, plan.single_speedup, plan.single_strategy);
  if (!candidate) {
    outcome.summary = "no size dispatch: " + candidate.error().message;
    return outcome;
  }
  auto evaluated = evaluate_as_run(task, *candidate, options, evaluator, store);
  if (!evaluated) return evaluated.error();
  std::string verdict = "not verified";
  if (evaluated->incumbent_screen_speedup)
    verdict = fmt::format("{:.3g}x on the screen tier", *evaluated->incumbent_screen_speedup);
  outcome.summary = "size dispatch: " + summary + "; " + verdict;
  outcome.run = StrategyRun{fmt::format("size dispatch ({})", fmt::join(names, " | ")), "dispatch",
                            std::move(*evaluated)};
  return outcome;
}

bool size_dispatch_wins(OptimizeResult const& dispatch,
                        std::optional<CandidateReport> const& incumbent_confirmed,
                        std::optional<double> incumbent_screen, bool confirm) {
  auto const confirmed_speedup = [](std::optional<CandidateReport> const& report) -> std::optional<double> {
    if (!report || report->status != CandidateStatus::ok) return std::nullopt;
    return report->geomean_speedup;
  };
  if (confirm) {
    auto const confirmed = confirmed_speedup(dispatch.confirmed);
    auto const incumbent = confirmed_speedup(incumbent_confirmed);
    return confirmed && (!incumbent || *confirmed > *incumbent);
  }
  auto const screen = dispatch.incumbent_screen_speedup;
  return screen && (!incumbent_screen || *screen > *incumbent_screen);
}

}  // namespace kopt
