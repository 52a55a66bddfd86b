// The pure part of kernel activity (docs/analysis.md, "Kernel activity (CUPTI)"): kernel intervals
// as CUPTI reports them turned into a KernelActivity (busy time with overlaps merged, span, per-name
// totals), and the activity block of the worker protocol. No CUDA here: the worker records, the
// client and the tests only summarise and parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kopt/kernel_activity.hpp"

namespace kopt::worker {

// One kernel execution, GPU timestamps in nanoseconds (end >= start expected; a reversed interval
// counts as empty).
struct KernelInterval {
  std::string name;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

// How many kernels a summary keeps by name (the longest by total time).
inline constexpr std::size_t kActivityTopKernels = 5;

// Time covered by at least one kernel, in microseconds: overlapping and touching intervals merged.
double busy_union_us(std::vector<KernelInterval> intervals);
// First start to last end, in microseconds (0 when there is no interval).
double span_us(std::vector<KernelInterval> const& intervals);
// Per-name launch counts and total durations, longest total first (ties: by name), at most `top`.
std::vector<KernelActivityKernel> kernels_by_time(std::vector<KernelInterval> const& intervals,
                                                  std::size_t top = kActivityTopKernels);
// Everything together. With no kernel, kernel_us and span_us are 0 (the call launched nothing).
KernelActivity summarize_activity(std::vector<KernelInterval> const& intervals, int memcpys, int memsets,
                                  std::optional<double> call_us, std::size_t top = kActivityTopKernels);

// A kernel name for people: the demangled C++ name when `mangled` is a mangled one, else unchanged.
std::string readable_kernel_name(char const* mangled);

// The "activity" block of an evaluate reply's size entry (docs/worker-protocol.md).
nlohmann::json to_json(KernelActivity const& activity);
// Throws nlohmann::json::exception on a block of the wrong shape (reply mapping turns it into an error).
KernelActivity kernel_activity_from_json(nlohmann::json const& j);

}  // namespace kopt::worker
