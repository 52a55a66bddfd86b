#include "cli/search_evaluator.hpp"

#include <algorithm>
#include <charconv>

#include "cli/farm_endpoint.hpp"
#include "cli/options.hpp"
#include "kopt/optimize_farm.hpp"
#include "kopt/optimize_gpu_pool.hpp"

namespace kopt::cli {

Result<std::optional<std::vector<int>>> parse_gpu_list(std::string_view text) {
  if (text.empty() || text == "all") return std::optional<std::vector<int>>{};
  auto invalid = [&](std::string const& why) {
    return make_error(ErrorCode::invalid_argument, "--gpus '" + std::string(text) + "': " + why +
                                                       " (expected 'all' or GPU indices separated by commas, "
                                                       "such as 0,1,3; the first is the one confirm-tier "
                                                       "timings come from)");
  };
  std::vector<int> devices;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t const end = std::min(text.find(',', begin), text.size());
    std::string_view const item = text.substr(begin, end - begin);
    int index = -1;
    auto const [rest, ec] = std::from_chars(item.data(), item.data() + item.size(), index);
    if (item.empty() || ec != std::errc{} || rest != item.data() + item.size() || index < 0)
      return invalid("'" + std::string(item) + "' is not a GPU index");
    if (std::find(devices.begin(), devices.end(), index) != devices.end())
      return invalid("GPU " + std::to_string(index) + " is listed twice");
    devices.push_back(index);
    begin = end + 1;
  }
  return std::optional<std::vector<int>>{std::move(devices)};
}

Result<std::unique_ptr<CandidateEvaluator>> make_search_evaluator(SearchEvaluatorRequest const& request,
                                                                  std::vector<std::string>& notes) {
  if (request.where.queue.empty()) {
    if (!request.where.gpus.empty() && request.where.device_given) {
      return make_error(ErrorCode::invalid_argument,
                        "--gpus and --device both given: --device N is --gpus N (one GPU); give one of them");
    }
    std::optional<std::vector<int>> devices;
    if (request.where.device_given) {
      devices = std::vector<int>{request.where.device};
    } else {
      auto parsed = parse_gpu_list(request.where.gpus);
      if (!parsed) return parsed.error();
      devices = std::move(*parsed);
    }
    auto pool = GpuPoolCandidateEvaluator::start(
        search_eval_options(request.seed, request.where.device, request.arch), devices, &notes);
    if (!pool) return pool.error();
    return std::unique_ptr<CandidateEvaluator>(std::move(*pool));
  }
  if (!request.where.gpus.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "--gpus with --queue: the farm's workers choose their GPUs (kopt worker --gpu N)");
  }
  FarmQueueArgs where;
  where.queue = request.where.queue;
  auto located = farm_queue(where);
  if (!located) return located.error();
  FarmEvaluatorOptions options;
  options.screen_seed = request.seed;
  options.gpu_model = request.where.queue_gpu;
  auto farm = FarmCandidateEvaluator::create(located->endpoint, located->names, options);
  if (!farm) return farm.error();
  return std::unique_ptr<CandidateEvaluator>(std::move(*farm));
}

ErrorOrigin evaluator_error_origin(Error const& error) {
  return error.code == ErrorCode::invalid_argument ? ErrorOrigin::input : ErrorOrigin::environment;
}

}  // namespace kopt::cli
