#include "cli/single_candidate.hpp"

#include <cstdlib>

#include "cli/candidates.hpp"
#include "cli/options.hpp"
#include "cli/tunable_candidate.hpp"

namespace kopt::cli {

std::unique_ptr<SingleCandidate> open_single_candidate(std::string const& task_dir,
                                                       std::string const& candidate, int device,
                                                       SingleCandidateFailure& failure) {
  auto task = load_task(task_dir);
  if (!task) {
    failure = {task.error(), ErrorOrigin::input};
    return nullptr;
  }
  auto candidates = read_candidates({candidate});
  if (!candidates) {
    failure = {candidates.error(), ErrorOrigin::input};
    return nullptr;
  }
  auto notes = concretise_tunable_candidates(*task, *candidates, {});
  if (!notes) {
    failure = {notes.error(), ErrorOrigin::input};
    return nullptr;
  }
  EvalOptions options;
  options.tier = TimingTier::screen;
  options.device = device;
  options.seed = 1;
  options.worker_path = worker_path_from_env(std::getenv("KOPT_WORKER"));
  auto evaluator = Evaluator::create(options);
  if (!evaluator) {
    failure = {evaluator.error(), ErrorOrigin::environment};
    return nullptr;
  }
  return std::make_unique<SingleCandidate>(SingleCandidate{std::move(*task), std::move(candidates->front()),
                                                           std::move(*evaluator), std::move(*notes)});
}

}  // namespace kopt::cli
