// A search's evaluations on the evaluation farm (docs/distributed.md): a CandidateEvaluator that sends each
// batch of candidates as jobs to the farm's queue, where `kopt worker`s (one per GPU, any number of hosts)
// evaluate them, and waits for their kopt.eval/1 results. The batch is in flight on as many GPUs as there
// are workers.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kopt/farm.hpp"
#include "kopt/optimize.hpp"

namespace kopt {

struct FarmEvaluatorOptions {
  std::uint64_t screen_seed = 0;  // the screen tier's trials, shared by every job of the search
  std::chrono::milliseconds batch_timeout = std::chrono::minutes(30);  // a batch without all results: error
  std::string gpu_model;  // the model whose workers run the jobs ("NVIDIA H200"); empty: the farm's only one
};

class FarmCandidateEvaluator final : public CandidateEvaluator {
 public:
  // Connects and reads the workers' announcements, then sends every job to the lane of one GPU model
  // (options.gpu_model, or the farm's only model), where only that model's workers take them. Errors:
  // io_error (the queue), not_found (no worker, or none of the model asked for: the models are named),
  // invalid_argument (several models and none chosen: named).
  static Result<std::unique_ptr<FarmCandidateEvaluator>> create(farm::RedisEndpoint const& endpoint,
                                                                farm::QueueNames const& names,
                                                                FarmEvaluatorOptions options);
  ~FarmCandidateEvaluator() override;
  FarmCandidateEvaluator(FarmCandidateEvaluator const&) = delete;
  FarmCandidateEvaluator& operator=(FarmCandidateEvaluator const&) = delete;

  // The GPU model and architecture the jobs go to; the UUID names the farm's lane (prefix, group and lane),
  // not one GPU.
  EvaluationTarget target() const override;
  // The workers of its lane announced when it connected: a search keeps that many candidates in flight.
  std::size_t concurrency() const override;
  // One job per candidate (the task by its folder's absolute path), then every result, in order. Error: a
  // job a worker could not run (its kopt.farm_error/1, with the candidate named), a result that is not
  // kopt.eval/1, the queue lost, or the batch timeout.
  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& candidates,
                                                TimingTier tier) override;

  struct Impl;

 private:
  explicit FarmCandidateEvaluator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kopt
