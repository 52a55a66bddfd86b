#include "kopt/worker/kernel_activity_summary.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>

#include "kopt/json_values.hpp"

namespace kopt::worker {
namespace {

constexpr double kNsPerUs = 1000.0;

std::uint64_t end_of(KernelInterval const& k) {
  return std::max(k.start_ns, k.end_ns);
}

std::optional<double> optional_number_from(nlohmann::json const& j, char const* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
}

}  // namespace

double busy_union_us(std::vector<KernelInterval> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](KernelInterval const& a, KernelInterval const& b) { return a.start_ns < b.start_ns; });
  std::uint64_t busy = 0;
  std::optional<std::uint64_t> open_start;
  std::uint64_t open_end = 0;
  for (auto const& k : intervals) {
    std::uint64_t const end = end_of(k);
    if (open_start && k.start_ns <= open_end) {
      open_end = std::max(open_end, end);
      continue;
    }
    if (open_start) busy += open_end - *open_start;
    open_start = k.start_ns;
    open_end = end;
  }
  if (open_start) busy += open_end - *open_start;
  return static_cast<double>(busy) / kNsPerUs;
}

double span_us(std::vector<KernelInterval> const& intervals) {
  if (intervals.empty()) return 0.0;
  std::uint64_t first = intervals.front().start_ns;
  std::uint64_t last = end_of(intervals.front());
  for (auto const& k : intervals) {
    first = std::min(first, k.start_ns);
    last = std::max(last, end_of(k));
  }
  return static_cast<double>(last - first) / kNsPerUs;
}

std::vector<KernelActivityKernel> kernels_by_time(std::vector<KernelInterval> const& intervals,
                                                  std::size_t top) {
  std::map<std::string, KernelActivityKernel> by_name;
  for (auto const& k : intervals) {
    KernelActivityKernel& entry = by_name[k.name];
    entry.name = k.name;
    entry.count += 1;
    entry.total_us += static_cast<double>(end_of(k) - k.start_ns) / kNsPerUs;
  }
  std::vector<KernelActivityKernel> out;
  out.reserve(by_name.size());
  for (auto& [name, entry] : by_name) out.push_back(std::move(entry));
  // std::map gave name order; a stable sort keeps it among equal totals.
  std::stable_sort(out.begin(), out.end(), [](KernelActivityKernel const& a, KernelActivityKernel const& b) {
    return a.total_us > b.total_us;
  });
  if (out.size() > top) out.resize(top);
  return out;
}

KernelActivity summarize_activity(std::vector<KernelInterval> const& intervals, int memcpys, int memsets,
                                  std::optional<double> call_us, std::size_t top) {
  KernelActivity out;
  out.launches = static_cast<int>(intervals.size());
  out.kernel_us = busy_union_us(intervals);
  out.span_us = span_us(intervals);
  out.call_us = call_us;
  out.memcpys = memcpys;
  out.memsets = memsets;
  out.kernels = kernels_by_time(intervals, top);
  out.from_cupti = true;
  return out;
}

std::string readable_kernel_name(char const* mangled) {
  if (mangled == nullptr) return "?";
  int status = -1;
  std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
  if (status == 0 && demangled) return demangled.get();
  return mangled;
}

nlohmann::json to_json(KernelActivity const& activity) {
  nlohmann::json kernels = nlohmann::json::array();
  for (auto const& k : activity.kernels) {
    kernels.push_back({{"name", k.name}, {"count", k.count}, {"total_us", k.total_us}});
  }
  return {
      {"launches", activity.launches},
      {"kernel_us", number_or_null(activity.kernel_us)},
      {"span_us", number_or_null(activity.span_us)},
      {"call_us", number_or_null(activity.call_us)},
      {"memcpys", activity.memcpys},
      {"memsets", activity.memsets},
      {"kernels", std::move(kernels)},
      {"source", activity.from_cupti ? "cupti" : "kernel_mode"},
  };
}

KernelActivity kernel_activity_from_json(nlohmann::json const& j) {
  KernelActivity out;
  out.launches = j.at("launches").get<int>();
  out.kernel_us = optional_number_from(j, "kernel_us");
  out.span_us = optional_number_from(j, "span_us");
  out.call_us = optional_number_from(j, "call_us");
  out.memcpys = j.value("memcpys", 0);
  out.memsets = j.value("memsets", 0);
  for (auto const& k : j.value("kernels", nlohmann::json::array())) {
    out.kernels.push_back(KernelActivityKernel{k.at("name").get<std::string>(), k.at("count").get<int>(),
                                               k.at("total_us").get<double>()});
  }
  out.from_cupti = j.value("source", std::string("cupti")) != "kernel_mode";
  return out;
}

}  // namespace kopt::worker
