// Uncoalesced global access: a warp's request touches more 32-byte sectors than its data needs.
// Trigger: bytes used per sector < 28 of 32 (ncu MemoryCacheAccessPattern fires below 32; we leave 4 bytes
// for partial tiles at edges), or, without that metric, more than 16 sectors per request (the ideal for
// 128-bit accesses, Profiling Guide "Sectors/Req").
#include <fmt/format.h>

#include <array>
#include <string>

#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {
namespace uncoalesced_global_access {

constexpr double kSectorBytes = 32.0;
constexpr double kFlagBelowBytes = 28.0;
constexpr double kMediumBelowBytes = 16.0;  // half of each sector wasted
constexpr double kHighBelowBytes = 8.0;     // three quarters wasted
constexpr double kIdealMaxSectorsPerRequest = 16.0;
constexpr double kHighSectorsPerRequest = 32.0;  // one sector per thread

struct Direction {
  std::string_view label;
  std::optional<double> bytes_per_sector;
  std::optional<double> sectors_per_request;
};

Severity severity_of(Direction const& d) {
  if (d.bytes_per_sector) {
    if (*d.bytes_per_sector < kHighBelowBytes) return Severity::high;
    if (*d.bytes_per_sector < kMediumBelowBytes) return Severity::medium;
    return Severity::low;
  }
  return *d.sectors_per_request >= kHighSectorsPerRequest ? Severity::high : Severity::medium;
}

bool flagged(Direction const& d) {
  if (d.bytes_per_sector) return *d.bytes_per_sector > 0.0 && *d.bytes_per_sector < kFlagBelowBytes;
  return d.sectors_per_request && *d.sectors_per_request > kIdealMaxSectorsPerRequest;
}

std::optional<Finding> examine(Metrics const& m, StaticFacts const& /*facts*/, WorkFacts const& /*work*/) {
  std::array<Direction, 2> const directions{{
      {"loads", lookup(m, metric::global_ld_bytes_per_sector),
       ratio(lookup(m, metric::global_ld_sectors), lookup(m, metric::global_ld_requests))},
      {"stores", lookup(m, metric::global_st_bytes_per_sector),
       ratio(lookup(m, metric::global_st_sectors), lookup(m, metric::global_st_requests))},
  }};
  Finding finding;
  finding.tool = "uncoalesced_global_access";
  std::string details;
  bool any = false;
  for (Direction const& d : directions) {
    if (!flagged(d)) continue;
    any = true;
    finding.severity = max_severity(finding.severity, severity_of(d));
    if (!details.empty()) details += "; ";
    details += fmt::format("global {}", d.label);
    if (d.bytes_per_sector)
      details +=
          fmt::format(" use {:.1f} of the {:.0f} bytes of each sector ({:.0f}% wasted)", *d.bytes_per_sector,
                      kSectorBytes, (1.0 - *d.bytes_per_sector / kSectorBytes) * 100.0);
    if (d.sectors_per_request)
      details += fmt::format("{} {:.1f} sectors per request (ideal 4/8/16 for 32/64/128-bit accesses)",
                             d.bytes_per_sector ? ", with" : " touch", *d.sectors_per_request);
  }
  if (!any) return std::nullopt;
  note(finding.evidence, metric::global_ld_bytes_per_sector, directions[0].bytes_per_sector);
  note(finding.evidence, metric::global_st_bytes_per_sector, directions[1].bytes_per_sector);
  note(finding.evidence, "derived.global_ld_sectors_per_request", directions[0].sectors_per_request);
  note(finding.evidence, "derived.global_st_sectors_per_request", directions[1].sectors_per_request);
  finding.explanation = fmt::format(
      "Uncoalesced global memory access: {}. Threads of a warp read addresses far apart, so the memory "
      "system moves whole sectors for a few useful bytes.",
      details);
  finding.strategies = {std::string(strategy::coalesce_global_access),
                        std::string(strategy::stage_through_shared_memory)};
  return finding;
}

}  // namespace uncoalesced_global_access

AnalysisTool make_uncoalesced_global_access_tool() {
  return AnalysisTool{
      .name = "uncoalesced_global_access",
      .description = "Global loads/stores that use only part of each 32-byte sector they move.",
      .always = false,
      .triggers = {BottleneckClass::memory_bound, BottleneckClass::latency_bound, BottleneckClass::balanced},
      .metrics = {metric::global_ld_bytes_per_sector, metric::global_st_bytes_per_sector,
                  metric::global_ld_sectors, metric::global_ld_requests, metric::global_st_sectors,
                  metric::global_st_requests},
      .examine = &uncoalesced_global_access::examine,
  };
}

}  // namespace kopt::analysis
