// Learning configurations that fail for resource reasons, and what they rule out.
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "kopt/text.hpp"
#include "kopt/tuning.hpp"

namespace kopt {
namespace {

bool contains(std::string const& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

std::string_view to_string(ResourceKind kind) noexcept {
  switch (kind) {
    case ResourceKind::shared_memory: return "shared_memory";
    case ResourceKind::registers: return "registers";
    case ResourceKind::local_memory: return "local_memory";
    case ResourceKind::launch_limits: return "launch_limits";
  }
  return "launch_limits";
}

std::optional<ResourceKind> classify_resource_failure(CandidateStatus status, std::string_view message) {
  std::string const text = ascii_lower(message);
  if (status == CandidateStatus::compile_error) {
    // ptxas: "Entry function 'k' uses too much shared data (0x10400 bytes, 0xc000 max)".
    if (contains(text, "too much shared data") ||
        (contains(text, "shared memory") && contains(text, "exceed")))
      return ResourceKind::shared_memory;
    if (contains(text, "too much local data")) return ResourceKind::local_memory;
    if (contains(text, "registers") && (contains(text, "too many") || contains(text, "exceed")))
      return ResourceKind::registers;
    return std::nullopt;
  }
  if (status == CandidateStatus::launch_error) {
    if (contains(text, "shared")) return ResourceKind::shared_memory;
    // cudaErrorLaunchOutOfResources: registers per thread x threads per block exceed the SM's file.
    if (contains(text, "too many resources") || contains(text, "out_of_resources") ||
        contains(text, "out of resources") || contains(text, "outofresources"))
      return ResourceKind::registers;
    // Block or grid beyond the device's limits, dynamic shared memory above the opt-in maximum.
    if (contains(text, "invalid configuration") || contains(text, "invalid argument") ||
        contains(text, "invalid_value") || contains(text, "invalidvalue"))
      return ResourceKind::launch_limits;
  }
  return std::nullopt;
}

InvalidConfigs::InvalidConfigs(TuningSpace space) : space_(std::move(space)) {}

bool InvalidConfigs::record(Configuration const& config, CandidateStatus status, std::string_view message) {
  auto const kind = classify_resource_failure(status, message);
  if (!kind) return false;
  record(config, *kind, std::string(message));
  return true;
}

void InvalidConfigs::record(Configuration const& config, ResourceKind kind, std::string reason) {
  (void)space_.config_key(config);  // throws std::invalid_argument for a configuration of another space
  entries_.push_back(Entry{config, kind, std::move(reason)});
}

bool InvalidConfigs::dominates(Entry const& failure, Configuration const& config) const {
  auto const& knobs = space_.knobs();
  if (config.indices.size() != knobs.size()) return false;
  std::optional<std::size_t> differing;
  for (std::size_t k = 0; k < knobs.size(); ++k) {
    if (config.indices[k] == failure.config.indices[k]) continue;
    if (differing) return false;  // two knobs differ: no conclusion
    differing = k;
  }
  if (!differing) return true;  // the very configuration that failed
  Knob const& knob = knobs[*differing];
  if (knob.kind != KnobKind::integer) return false;
  std::int64_t const failed = knob.values[failure.config.indices[*differing]];
  std::int64_t const value = knob.values[config.indices[*differing]];
  switch (knob.trend) {
    case ResourceTrend::increasing: return value > failed;
    case ResourceTrend::decreasing: return value < failed;
    case ResourceTrend::none: return false;
  }
  return false;
}

std::optional<std::string> InvalidConfigs::why_pruned(Configuration const& config) const {
  for (Entry const& entry : entries_) {
    if (!dominates(entry, config)) continue;
    std::string const failed = space_.config_key(entry.config);
    if (entry.config == config) return fmt::format("failed for {}: {}", to_string(entry.kind), entry.reason);
    return fmt::format("at least as resource-hungry as {}, which failed for {}: {}", failed,
                       to_string(entry.kind), entry.reason);
  }
  return std::nullopt;
}

}  // namespace kopt
