// A search's evaluations on every GPU of this host (docs/distributed.md, "One host, all its GPUs"): a
// CandidateEvaluator over one isolated worker per GPU. A screen batch is split over the GPUs and runs on
// all of them at once; everything a report rests on (the confirm tier, energy, profiles) runs on one
// designated GPU, so a reported speedup never mixes devices, and the GPUs are of one model, so screen
// timings are compared only between like devices.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kopt/eval.hpp"
#include "kopt/optimize.hpp"

namespace kopt {

class GpuPoolCandidateEvaluator final : public CandidateEvaluator {
 public:
  // The pool over `members`, the first the designated GPU (the run's target). Error invalid_argument: no
  // member, or members of another GPU model or architecture than the first (named).
  static Result<std::unique_ptr<GpuPoolCandidateEvaluator>> create(
      std::vector<std::unique_ptr<CandidateEvaluator>> members);
  // One KoptCandidateEvaluator per GPU of `devices` (the first designated), or, when `devices` is
  // nullopt, on base.device and every other visible GPU of its model (GPUs of another model are left
  // out, each with a line in `notes`). Every member shares one screen seed, so the screen tier's trials
  // are the same on every GPU. Errors: what a member's start says (no_gpu, a device that does not exist),
  // and create()'s.
  static Result<std::unique_ptr<GpuPoolCandidateEvaluator>> start(EvalOptions base,
                                                                  std::optional<std::vector<int>> devices,
                                                                  std::vector<std::string>* notes = nullptr);
  ~GpuPoolCandidateEvaluator() override;
  GpuPoolCandidateEvaluator(GpuPoolCandidateEvaluator const&) = delete;
  GpuPoolCandidateEvaluator& operator=(GpuPoolCandidateEvaluator const&) = delete;

  EvaluationTarget target() const override;  // the designated GPU's
  std::size_t concurrency() const override;  // the number of GPUs
  // Screen: the batch in contiguous slices, one per GPU, evaluated at once, the reports back in order.
  // Confirm: the designated GPU only.
  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& candidates,
                                                TimingTier tier) override;
  // Sliced as evaluate() slices a batch of that size; every GPU's worker shares the compile cache.
  void compile_ahead(TaskSpec const& task, std::vector<CandidateInput> const& candidates) override;
  void prepare(TaskSpec const& task) override;
  // The designated GPU first (into the shared compile cache), then the others at once.
  Status build_trusted_code(TaskSpec const& task) override;
  Result<EnergyReport> measure_energy(TaskSpec const& task, CandidateInput const& candidate,
                                      EnergyOptions const& options) override;
  Result<CandidateProfile> profile(TaskSpec const& task, CandidateInput const& candidate,
                                   ProfileOptions const& options) override;

 private:
  explicit GpuPoolCandidateEvaluator(std::vector<std::unique_ptr<CandidateEvaluator>> members);
  std::vector<std::unique_ptr<CandidateEvaluator>> members_;
};

}  // namespace kopt
