// What one call of a candidate (or reference) launched on the GPU: kernel launches, their names and
// durations, how much of the call the kernels kept the GPU busy. Recorded by the worker from CUPTI
// activity records after timing (never while timing; docs/analysis.md, "Kernel activity (CUPTI)").
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kopt {

// One kernel (by name) within the call.
struct KernelActivityKernel {
  std::string name;       // demangled when possible
  int count = 0;          // launches of this kernel in the call
  double total_us = 0.0;  // summed durations of those launches
};

struct KernelActivity {
  int launches = 0;                           // kernel launches in the call
  std::optional<double> kernel_us;            // union of kernel busy time (overlapping kernels merged)
  std::optional<double> span_us;              // first kernel start to last kernel end
  std::optional<double> call_us;              // the call's wall time, CUDA events around it
  int memcpys = 0;                            // memory copies in the call
  int memsets = 0;                            // memsets in the call
  std::vector<KernelActivityKernel> kernels;  // the longest few by total time, longest first
  bool from_cupti = true;  // false: kernel mode, one launch by construction (no times recorded)
};

}  // namespace kopt
