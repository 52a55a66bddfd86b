// The arithmetic of an energy measurement (docs/analysis.md, "Energy"), free of CUDA and NVML so that
// it is tested on any machine: how many calls fill a window, and the summary over trials.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace kopt::worker {

// How one window runs: `calls_per_graph` back-to-back calls captured in one CUDA graph, replayed
// `replays` times without a gap (a graph of millions of nodes would take long to build and instantiate).
struct WindowPlan {
  std::int64_t calls_per_graph = 1;
  std::int64_t replays = 1;
  std::int64_t calls() const noexcept { return calls_per_graph * replays; }
};

// A probe ran `probe_calls` calls back to back in `probe_seconds`. The plan has enough calls for
// `window_s` seconds plus `margin` (1.05: 5 % more, so that a window never falls short of window_s),
// at least one, in graphs of at most `max_graph_calls` calls (at least 1). A probe that measured no
// time (or no calls) plans a single call: the window is then measured as long as it really lasts.
WindowPlan plan_window(double probe_seconds, std::int64_t probe_calls, double window_s,
                       std::int64_t max_graph_calls, double margin = 1.05);

// Replays of a graph whose one replay took `replay_seconds` that fill `window_s` seconds plus `margin`:
// at least one (also when the replay measured no time).
std::int64_t replays_for_window(double replay_seconds, double window_s, double margin = 1.05);

// The energy counter's readings (mJ since the driver loaded) before and after a window, in joules;
// unset when the counter went backwards (a driver reload) and the window cannot be used.
std::optional<double> energy_delta_joules(std::uint64_t before_mj, std::uint64_t after_mj);

// One measured window.
struct EnergyWindow {
  double joules = 0.0;
  double seconds = 0.0;     // wall time of the window, first launch to synchronisation
  std::int64_t calls = 0;   // calls of the subject in the window
  double idle_watts = 0.0;  // power at the end of the cooldown before it
};

double joules_per_call(EnergyWindow const& window) noexcept;  // 0 without calls
double average_watts(EnergyWindow const& window) noexcept;    // 0 for a window of no time

// Smallest, median and largest of some values (all 0 when there are none).
struct Spread {
  double min = 0.0;
  double median = 0.0;
  double max = 0.0;
};
Spread spread_of(std::vector<double> const& values);

// The summary over trials: median (and range) of J/call, median average power, median idle power
// and median window length.
struct EnergySummary {
  Spread joules_per_call;
  double avg_watts = 0.0;
  double idle_watts = 0.0;
  double seconds = 0.0;
};
EnergySummary summarize_windows(std::vector<EnergyWindow> const& windows);

}  // namespace kopt::worker
