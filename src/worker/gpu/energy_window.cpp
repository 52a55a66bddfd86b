#include "worker/gpu/energy_window.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "kopt/measure.hpp"

namespace kopt::worker {

WindowPlan plan_window(double probe_seconds, std::int64_t probe_calls, double window_s,
                       std::int64_t max_graph_calls, double margin) {
  WindowPlan plan;
  if (!(probe_seconds > 0.0) || probe_calls <= 0 || !(window_s > 0.0)) return plan;
  double const per_call = probe_seconds / static_cast<double>(probe_calls);
  double const wanted = std::ceil(window_s * std::max(margin, 1.0) / per_call);
  // Far beyond any real window (a call of a picosecond); keeps the conversion below defined.
  double const capped = std::min(wanted, 1e15);
  auto const calls = std::max<std::int64_t>(1, static_cast<std::int64_t>(capped));
  std::int64_t const per_graph = std::max<std::int64_t>(1, max_graph_calls);
  plan.calls_per_graph = std::min(calls, per_graph);
  plan.replays = (calls + plan.calls_per_graph - 1) / plan.calls_per_graph;
  return plan;
}

std::int64_t replays_for_window(double replay_seconds, double window_s, double margin) {
  if (!(replay_seconds > 0.0) || !(window_s > 0.0)) return 1;
  double const wanted = std::ceil(window_s * std::max(margin, 1.0) / replay_seconds);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::min(wanted, 1e15)));
}

std::optional<double> energy_delta_joules(std::uint64_t before_mj, std::uint64_t after_mj) {
  if (after_mj < before_mj) return std::nullopt;
  return static_cast<double>(after_mj - before_mj) / 1000.0;
}

double joules_per_call(EnergyWindow const& window) noexcept {
  return window.calls > 0 ? window.joules / static_cast<double>(window.calls) : 0.0;
}

double average_watts(EnergyWindow const& window) noexcept {
  return window.seconds > 0.0 ? window.joules / window.seconds : 0.0;
}

Spread spread_of(std::vector<double> const& values) {
  SampleStats const stats = summarize(std::span<double const>(values));
  return Spread{stats.min, stats.median, stats.max};
}

EnergySummary summarize_windows(std::vector<EnergyWindow> const& windows) {
  std::vector<double> per_call;
  std::vector<double> watts;
  std::vector<double> idle;
  std::vector<double> seconds;
  for (auto const& w : windows) {
    per_call.push_back(joules_per_call(w));
    watts.push_back(average_watts(w));
    idle.push_back(w.idle_watts);
    seconds.push_back(w.seconds);
  }
  EnergySummary summary;
  summary.joules_per_call = spread_of(per_call);
  summary.avg_watts = spread_of(watts).median;
  summary.idle_watts = spread_of(idle).median;
  summary.seconds = spread_of(seconds).median;
  return summary;
}

}  // namespace kopt::worker
