// tensor_cores_allowed: the peak a task's work model is held against.
#include "kopt/task.hpp"

namespace kopt {

bool tensor_cores_allowed(TaskSpec const& task) {
  if (task.work.math != WorkMath::automatic) return task.work.math == WorkMath::tensor;
  for (auto const& buffer : task.buffers) {
    if (buffer.dtype == DType::f16 || buffer.dtype == DType::bf16) return true;
  }
  return false;
}

}  // namespace kopt
