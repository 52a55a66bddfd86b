// evaluate_as_run: one candidate without a tuning space, evaluated and recorded as a run of one point.
#include <chrono>

#include "kopt/optimize.hpp"

namespace kopt {

Result<OptimizeResult> evaluate_as_run(TaskSpec const& task, CandidateInput const& candidate,
                                       OptimizeOptions const& options, CandidateEvaluator& evaluator,
                                       Store& store) {
  if (options.objective != OptimizeObjective::runtime) {
    return make_error(ErrorCode::invalid_argument,
                      "a run of one fixed candidate ranks by runtime only (the objective is " +
                          std::string(to_string(options.objective)) + ")");
  }
  OptimizeOptions recorded_options = options;
  recorded_options.max_evaluations = 1;
  recorded_options.search_memory = false;
  auto log = create_optimize_run(store, task, candidate.source, recorded_options);
  if (!log) return log.error();
  auto const started = std::chrono::steady_clock::now();
  auto const fail = [&](Error error) -> Result<OptimizeResult> {
    (void)log->finish(false);
    return error;
  };
  OptimizeResult result;
  result.run = log->id();
  result.points = 1;
  result.stop_reason = "exhausted";
  if (auto built = evaluator.build_trusted_code(task); !built) return fail(built.error());

  EvaluationTarget const target = evaluator.target();
  CandidateKey const key = content_key(candidate, target);
  auto cached = log->cached(key, target);
  if (!cached) return fail(cached.error());
  RecordedEvaluation screen;
  if (*cached) {
    screen = std::move(**cached);
    ++result.from_store;
  } else {
    auto report = evaluator.evaluate_one(task, candidate, TimingTier::screen);
    if (!report) return fail(report.error());
    ++result.evaluated;
    result.search_time.add(report->phases);
    screen = record_with_insights(*report, TimingTier::screen, task, target.ceilings);
  }
  auto id = log->record(key, candidate, std::nullopt, "", screen, target);
  if (!id) return fail(id.error());
  result.incumbent_config = candidate.name;
  if (screen.status == CandidateStatus::ok) {
    result.incumbent = *id;
    result.incumbent_screen_speedup = screen.geomean_speedup;
    if (options.confirm) {
      auto const confirm_started = std::chrono::steady_clock::now();
      auto report = evaluator.evaluate_one(task, candidate, TimingTier::confirm);
      if (!report) return fail(report.error());
      ++result.evaluated;
      result.confirm_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - confirm_started).count();
      auto recorded =
          log->record(key, candidate, std::nullopt, "",
                      record_with_insights(*report, TimingTier::confirm, task, target.ceilings), target);
      if (!recorded) return fail(recorded.error());
      result.confirmed = std::move(*report);
    }
  }
  result.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (auto finished = log->finish(true); !finished) return finished.error();
  return result;
}

}  // namespace kopt
