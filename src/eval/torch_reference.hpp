// The PyTorch reference of a task (`[reference] torch = "problem.py"`, docs/pytorch.md): kopt's side of the
// bridge. It starts the reference process (`python -m kopt_torch serve TASK_DIR`), hands it each trial's
// inputs (generated here exactly as the worker generates them), masks the outputs it returns and writes them
// where the worker reads them, and asks it to time PyTorch eager and torch.compile with kopt's protocol.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kopt/child_process.hpp"
#include "kopt/measure.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"
#include "kopt/torch_python.hpp"
#include "kopt/worker/request_messages.hpp"
#include "kopt/worker/verdict_messages.hpp"

namespace kopt {

// PyTorch's timings of one size case: eager, and torch.compile when it compiled.
struct TorchTimings {
  worker::TimingFields eager;
  std::optional<worker::TimingFields> compiled;
  std::string compile_note;  // why there is no torch.compile timing, or how long compiling took
};

class TorchReference {
 public:
  // Starts the reference process for `task` on CUDA device `device` (a negative one: the CPU, for tests);
  // `work_dir` is a folder of kopt's own (the compile cache), under which a private folder (inputs and clear
  // outputs, mode 0700) and a results folder (masked results, read by the worker) are made.
  static Result<std::unique_ptr<TorchReference>> start(TaskSpec const& task, int device,
                                                       std::filesystem::path const& work_dir);
  ~TorchReference();
  TorchReference(TorchReference const&) = delete;
  TorchReference& operator=(TorchReference const&) = delete;

  // The results files of every trial an evaluation with `seed` uses on `sizes` (the selected size cases,
  // in the worker's order): trials 0 .. trials-1 and, for timed sizes, the verification after timing.
  // Computed once per trial and reused.
  Result<std::vector<worker::ReferenceResultsFile>> results_for(TaskSpec const& task,
                                                                std::vector<SizeCase const*> const& sizes,
                                                                std::uint64_t seed);

  // Eager and, with `compiled`, torch.compile on one size case under `tier`'s policy (flushing `flush_bytes`
  // before each sample), measured once per size case and tier and reused (torch.compile's first call costs
  // seconds: it is not paid when no baseline is wanted).
  Result<TorchTimings> timings(SizeCase const& size, TimingTier tier, std::int64_t flush_bytes,
                               bool compiled);

  // `kopt task check` on one size case: the reference's outputs on trial 0 of `seed`, computed twice.
  // deterministic: the two are identical bytes; constant: no output has two distinct values.
  struct SelfCheck {
    bool deterministic = true;
    bool constant = false;
    double call_ms = 0.0;
  };
  Result<SelfCheck> self_check(TaskSpec const& task, SizeCase const& size, std::uint64_t seed);

  // What the reference process said in its hello: torch, CUDA and device.
  nlohmann::json const& hello() const noexcept { return hello_; }
  // PyTorch's package and Triton's (from the hello): folders a candidate may not read.
  std::vector<std::filesystem::path> runtime_dirs() const;

 private:
  TorchReference() = default;
  Result<nlohmann::json> call(nlohmann::json request, std::chrono::milliseconds timeout);
  Result<worker::ReferenceResultsFile> compute(TaskSpec const& task, SizeCase const& size, std::uint64_t seed,
                                               int trial);
  // One forward on the trial's inputs: the outputs in clear (every output buffer, in order) and its time.
  struct ClearOutputs {
    std::vector<std::vector<std::byte>> buffers;
    std::vector<DType> types;
    double call_ms = 0.0;
  };
  Result<ClearOutputs> forward(TaskSpec const& task, SizeCase const& size, std::uint64_t seed, int trial);

  TorchPython python_;
  ChildProcess process_;
  nlohmann::json hello_;
  std::filesystem::path root_;         // private to kopt: removed at the end
  std::filesystem::path private_dir_;  // inputs and clear outputs
  std::filesystem::path results_dir_;  // masked results, which the worker may read
  std::int64_t next_id_ = 1;
  std::map<std::string, worker::ReferenceResultsFile> results_;  // by size#seed#trial
  std::map<std::string, TorchTimings> timings_;                  // by size#tier
};

}  // namespace kopt
