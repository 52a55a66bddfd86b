// Something the worker can call with a task's arguments: a launcher from a shared object (through
// the trampoline kopt appends, `void symbol(void** args)`), or a kernel from a CUBIN launched with
// the task's geometry. Both put their work on the calling thread's per-thread default stream.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <array>
#include <memory>
#include <string>

#include "kopt/expr.hpp"
#include "kopt/result.hpp"
#include "kopt/worker/protocol.hpp"

namespace kopt::worker {

class Callable {
 public:
  virtual ~Callable() = default;
  // Evaluates launch geometry for a size case (kernel mode); launchers accept anything.
  virtual Status prepare(ScalarEnv const& env) = 0;
  // Issues the work; returns the launch error, if any. Does not synchronise.
  virtual cudaError_t call(void** args) = 0;
};

// Loads the artifact. An Error here is the candidate's load_error (message says what is missing).
Result<std::unique_ptr<Callable>> load_callable(ArtifactRef const& ref);

}  // namespace kopt::worker
