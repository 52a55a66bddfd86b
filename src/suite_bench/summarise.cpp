// Geomeans per scenario and overall, and the suite's goals checked against the rows (docs/bench.md).
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>

#include "kopt/suite_bench.hpp"
#include "suite_bench/geomean.hpp"

namespace kopt {
namespace {

std::string join(std::vector<std::string> const& items, std::size_t limit = 12) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > limit) out += fmt::format(" and {} more", items.size() - limit);
  return out;
}

constexpr double kBandwidthGoalPct = 85.0;

}  // namespace

// Families whose largest size must reach a fraction of the vendor library.
double vendor_goal(std::string_view family) {
  static std::set<std::string, std::less<>> const at_09{"gemm",     "gemv", "spmv_csr", "spmv_coo",
                                                        "spmv_ell", "scan", "reduction"};
  if (at_09.contains(family)) return 0.9;
  if (family == "fft") return 0.7;
  return 0.0;
}

bool misses_bandwidth_goal(BenchRow const& row) {
  return row.largest && row.memory_bound && (!row.pct_of_sol || *row.pct_of_sol < kBandwidthGoalPct);
}

bool misses_vendor_goal(BenchRow const& row) {
  double const goal = vendor_goal(row.family);
  return row.largest && goal > 0.0 && row.baseline_us && (!row.vs_vendor || *row.vs_vendor < goal);
}

void summarise_bench(BenchSummary& summary) {
  std::map<std::string, std::vector<double>> by_scenario;
  std::vector<double> all;
  for (auto const& row : summary.rows) {
    double const speedup = row.speedup.value_or(row.status == "no_strategy" ? 1.0 : 0.0);
    if (speedup <= 0.0) continue;
    by_scenario[row.scenario].push_back(speedup);
    all.push_back(speedup);
  }
  summary.geomean_by_scenario.clear();
  for (auto const& [scenario, values] : by_scenario)
    summary.geomean_by_scenario.emplace_back(scenario, *geomean_of(values));
  summary.geomean_overall = geomean_of(all);

  summary.goals.clear();
  if (summary.torch) {  // PyTorch problems are judged by fast_p, not by the suite's goals
    summary.torch_metrics = torch_bench_metrics(summary.rows);
    return;
  }
  std::set<std::string> tasks;
  std::vector<std::string> unverified;
  for (auto const& row : summary.rows) {
    tasks.insert(row.task);
    if (row.status != "ok" && (unverified.empty() || unverified.back() != row.task))
      unverified.push_back(row.task);
  }
  summary.goals.push_back({"every task verified on all size cases", unverified.empty() && !tasks.empty(),
                           unverified.empty()
                               ? fmt::format("{} tasks", tasks.size())
                               : fmt::format("{} of {} tasks not verified by a kopt kernel: {}",
                                             unverified.size(), tasks.size(), join(unverified))});
  std::vector<std::string> slow_memory;
  std::size_t memory_rows = 0;
  std::vector<std::string> behind_vendor;
  std::size_t vendor_rows = 0;
  for (auto const& row : summary.rows) {
    if (!row.largest) continue;
    if (row.memory_bound) {
      ++memory_rows;
      if (misses_bandwidth_goal(row)) {
        slow_memory.push_back(row.pct_of_sol ? fmt::format("{} {:.0f}%", row.task, *row.pct_of_sol)
                                             : row.task + " -");
      }
    }
    double const goal = vendor_goal(row.family);
    if (goal > 0.0 && row.baseline_us) {
      ++vendor_rows;
      if (misses_vendor_goal(row)) {
        behind_vendor.push_back(row.vs_vendor
                                    ? fmt::format("{} {:.2f}x (goal {:.1f}x)", row.task, *row.vs_vendor, goal)
                                    : row.task + " -");
      }
    }
  }
  summary.goals.push_back(
      {"memory-bound tasks at >= 85% of DRAM bandwidth (largest size)", slow_memory.empty(),
       memory_rows == 0 ? std::string("no memory-bound task in this run")
       : slow_memory.empty()
           ? fmt::format("{} tasks", memory_rows)
           : fmt::format("{} of {} below: {}", slow_memory.size(), memory_rows, join(slow_memory))});
  summary.goals.push_back(
      {"GEMM, GEMV, SpMV, scan, reduction >= 0.9x and FFT >= 0.7x the vendor (largest size)",
       behind_vendor.empty(),
       vendor_rows == 0 ? std::string("no such task with a vendor baseline in this run")
       : behind_vendor.empty()
           ? fmt::format("{} tasks", vendor_rows)
           : fmt::format("{} of {} below: {}", behind_vendor.size(), vendor_rows, join(behind_vendor))});
  summary.goals.push_back({"geomean speedup over the reference >= 10x",
                           summary.geomean_overall && *summary.geomean_overall >= 10.0,
                           summary.geomean_overall
                               ? fmt::format("{:.2f}x over {} rows", *summary.geomean_overall, all.size())
                               : "no rows"});
}

}  // namespace kopt
