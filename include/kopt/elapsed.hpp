// Elapsed wall time on the steady clock: phase times in replies and reports (kernels are timed with
// CUDA events, docs/timing.md, never with this).
#pragma once

#include <chrono>

namespace kopt {

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace kopt
