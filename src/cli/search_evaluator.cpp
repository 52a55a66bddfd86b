#include "cli/search_evaluator.hpp"

#include "cli/farm_endpoint.hpp"
#include "cli/options.hpp"
#include "kopt/optimize_farm.hpp"

namespace kopt::cli {

Result<std::unique_ptr<CandidateEvaluator>> make_search_evaluator(std::string const& queue,
                                                                  std::uint64_t seed, int device,
                                                                  std::string const& arch) {
  if (queue.empty()) {
    auto local = KoptCandidateEvaluator::create(search_eval_options(seed, device, arch));
    if (!local) return local.error();
    return std::unique_ptr<CandidateEvaluator>(std::move(*local));
  }
  FarmQueueArgs where;
  where.queue = queue;
  auto located = farm_queue(where);
  if (!located) return located.error();
  FarmEvaluatorOptions options;
  options.screen_seed = seed;
  auto farm = FarmCandidateEvaluator::create(located->endpoint, located->names, options);
  if (!farm) return farm.error();
  return std::unique_ptr<CandidateEvaluator>(std::move(*farm));
}

}  // namespace kopt::cli
