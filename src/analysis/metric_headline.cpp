// metric_headline: the speed-of-light numbers a profile summary quotes, read from stage 1's metrics.
#include "analysis/tool_support.hpp"
#include "kopt/analysis.hpp"
#include "kopt/metric_names.hpp"

namespace kopt {

MetricHeadline metric_headline(Metrics const& metrics) {
  MetricHeadline h;
  if (auto ns = analysis::lookup(metrics, metric::duration_ns)) h.duration_us = *ns / 1e3;
  h.dram_pct = analysis::lookup(metrics, metric::dram_throughput);
  h.memory_pct = analysis::lookup(metrics, metric::memory_throughput);
  h.l2_pct = analysis::lookup(metrics, metric::l2_throughput);
  h.sm_pct = analysis::lookup(metrics, metric::sm_throughput);
  h.achieved_occupancy_pct = analysis::lookup(metrics, metric::achieved_occupancy);
  auto const read = analysis::lookup(metrics, metric::dram_bytes_read);
  auto const written = analysis::lookup(metrics, metric::dram_bytes_write);
  if (read || written) h.dram_bytes = read.value_or(0.0) + written.value_or(0.0);
  return h;
}

}  // namespace kopt
