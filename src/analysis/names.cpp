// Names of the analysis enums (used in reports, JSON and prompts).
#include <array>
#include <utility>

#include "kopt/analysis.hpp"

namespace kopt {
namespace {

constexpr std::array<std::pair<BottleneckClass, std::string_view>, 6> kBottleneckNames{{
    {BottleneckClass::memory_bound, "memory_bound"},
    {BottleneckClass::compute_bound, "compute_bound"},
    {BottleneckClass::latency_bound, "latency_bound"},
    {BottleneckClass::small_grid, "small_grid"},
    {BottleneckClass::launch_overhead_bound, "launch_overhead_bound"},
    {BottleneckClass::balanced, "balanced"},
}};

}  // namespace

std::string_view to_string(BottleneckClass value) noexcept {
  for (auto const& [bottleneck, name] : kBottleneckNames)
    if (bottleneck == value) return name;
  return "unknown";
}

std::optional<BottleneckClass> bottleneck_class_from_string(std::string_view text) noexcept {
  for (auto const& [bottleneck, name] : kBottleneckNames)
    if (name == text) return bottleneck;
  return std::nullopt;
}

std::string_view to_string(MemoryLevel value) noexcept {
  switch (value) {
    case MemoryLevel::dram: return "dram";
    case MemoryLevel::l2: return "l2";
    case MemoryLevel::l1: return "l1";
  }
  return "unknown";
}

std::string_view to_string(ClassificationBasis value) noexcept {
  switch (value) {
    case ClassificationBasis::metrics: return "metrics";
    case ClassificationBasis::roofline: return "roofline";
    case ClassificationBasis::none: return "none";
  }
  return "unknown";
}

std::string_view to_string(Severity value) noexcept {
  switch (value) {
    case Severity::info: return "info";
    case Severity::low: return "low";
    case Severity::medium: return "medium";
    case Severity::high: return "high";
  }
  return "unknown";
}

}  // namespace kopt
