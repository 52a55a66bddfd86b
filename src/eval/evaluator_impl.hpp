// Evaluator's state, shared by the files that implement its operations (evaluate, profile_launch).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "eval/torch_reference.hpp"
#include "kopt/compile.hpp"
#include "kopt/eval.hpp"
#include "kopt/worker/client.hpp"

namespace kopt {

struct Evaluator::Impl {
  EvalOptions options;
  std::optional<Compiler> compiler;          // candidates: with the user's extra flags
  std::optional<Compiler> trusted_compiler;  // the task's reference and baseline: without them
  std::unique_ptr<CompileQueue> compiles;    // candidates, compiled ahead (compile_ahead) or on demand
  std::optional<worker::WorkerClient> worker;
  DeviceInfo device;      // the worker's, with the cached calibration's measured peaks applied
  EvaluationPlace place;  // where its evaluations run (this host, the worker's GPU)
  std::filesystem::path worker_path;
  std::thread preparing;  // prepare(): the next task's reference and baseline, building
  // The PyTorch reference processes of the tasks that have one (docs/pytorch.md), by task folder; shared with
  // the other tiers' evaluators of a search (share_torch_references).
  using TorchReferences = std::map<std::filesystem::path, std::unique_ptr<TorchReference>>;
  std::shared_ptr<TorchReferences> torch = std::make_shared<TorchReferences>();

  // The task's PyTorch reference, started at its first use.
  Result<TorchReference*> torch_reference(TaskSpec const& task);

  Impl() = default;
  Impl(Impl const&) = delete;
  Impl& operator=(Impl const&) = delete;
  ~Impl() {
    if (preparing.joinable()) preparing.join();
  }
};

// "compilation failed: <the compiler's first error line>" (or its first line when none says error).
std::string compile_failure_message(std::string const& diagnostics);

}  // namespace kopt
