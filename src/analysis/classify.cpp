// Stage 1: the bottleneck class. Nsight Compute's SOLBottleneck rule on profiler metrics, or the same
// thresholds on % of roofline from the work model; launch overhead and small grids on top.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "analysis/launch_facts.hpp"
#include "analysis/tool_support.hpp"
#include "kopt/analysis.hpp"
#include "kopt/metric_names.hpp"

namespace kopt {
namespace {

using analysis::GridFill;
using analysis::LaunchOverhead;

// Nsight Compute sections/SOLBottleneck.py (shared/notes/profiling.md §3).
constexpr double kRoofPct = 80.0;         // max(SM%, Mem%) >= 80: "High Throughput"
constexpr double kLowPct = 60.0;          // both < 60: "Small Grid" (waves < 1) or "Latency Issue"
constexpr double kLeanDifference = 10.0;  // |SM% - Mem%| >= 10: "High Compute/Memory Throughput"

// What the two percentages are called in the sentence (profiler vs. roofline wording).
struct Labels {
  std::string_view compute;
  std::string_view memory;
};

// "(1 block for 132 SMs, 0.0076 waves per SM)", with whatever is known.
std::string grid_words(GridFill const& grid) {
  std::string words;
  if (grid.grid) words = fmt::format("{:.0f} block{}", *grid.grid, *grid.grid == 1.0 ? "" : "s");
  if (grid.sms) words += fmt::format("{}for {:.0f} SMs", words.empty() ? "" : " ", *grid.sms);
  if (grid.waves) words += fmt::format("{}{:.3g} waves per SM", words.empty() ? "" : ", ", *grid.waves);
  return words.empty() ? std::string() : " (" + words + ")";
}

std::string small_grid_words(GridFill const& grid) {
  if (grid.small) return fmt::format("the grid{} cannot fill the GPU", grid_words(grid));
  return fmt::format(
      "the grid{} runs one full wave and a last wave at most half full, idling {:.0f}% of the "
      "SM-time",
      grid_words(grid), grid.tail_idle_fraction.value_or(0.0) * 100.0);
}

void note_launch(Evidence& evidence, LaunchOverhead const& launch) {
  analysis::note(evidence, "work.launches_per_call", launch.launches);
  analysis::note(evidence, "derived.mean_kernel_us", launch.mean_kernel_us);
  analysis::note(evidence, "derived.launch_idle_fraction", launch.idle_fraction);
}

void note_grid(Evidence& evidence, GridFill const& grid) {
  analysis::note(evidence, metric::waves_per_sm, grid.waves);
  analysis::note(evidence, "derived.grid_blocks", grid.grid);
  analysis::note(evidence, "derived.sm_count", grid.sms);
  analysis::note(evidence, "derived.idle_sm_fraction", grid.idle_sm_fraction);
  analysis::note(evidence, "derived.tail_idle_fraction", grid.tail_idle_fraction);
}

std::string launch_sentence(LaunchOverhead const& launch, WorkFacts const& work) {
  std::string text = "Launch-overhead-bound: ";
  if (launch.launches) text += fmt::format("{:.0f} launches per call", *launch.launches);
  if (launch.idle_fraction && work.median_us) {
    text += fmt::format("{}take {:.1f} us, of which {:.0f}% is gaps between kernels",
                        launch.launches ? " " : "", *work.median_us, *launch.idle_fraction * 100.0);
  } else if (launch.mean_kernel_us) {
    text += fmt::format(" of {:.1f} us each, comparable to the cost of a launch", *launch.mean_kernel_us);
  }
  text += "; fewer, larger launches would help more than a faster kernel.";
  return text;
}

// The SOLBottleneck decision on two percentages; fills class and sentence.
void decide(double compute_pct, double memory_pct, GridFill const& grid, Labels const& labels,
            Classification& out) {
  double const top = std::max(compute_pct, memory_pct);
  if (top >= kRoofPct) {
    if (memory_pct >= compute_pct) {
      out.bottleneck = BottleneckClass::memory_bound;
      out.summary = fmt::format("Memory-bound: {} is at {:.0f}% of peak (>= {:.0f}%) while {} is at {:.0f}%.",
                                labels.memory, memory_pct, kRoofPct, labels.compute, compute_pct);
    } else {
      out.bottleneck = BottleneckClass::compute_bound;
      out.summary =
          fmt::format("Compute-bound: {} is at {:.0f}% of peak (>= {:.0f}%) while {} is at {:.0f}%.",
                      labels.compute, compute_pct, kRoofPct, labels.memory, memory_pct);
    }
  } else if (compute_pct < kLowPct && memory_pct < kLowPct) {
    if (grid.small_or_short_tail()) {
      out.bottleneck = BottleneckClass::small_grid;
      out.summary = fmt::format(
          "Small grid: {}; {} is at {:.0f}% and {} at {:.0f}% of peak (both < {:.0f}%).",
          small_grid_words(grid), labels.compute, compute_pct, labels.memory, memory_pct, kLowPct);
    } else {
      out.bottleneck = BottleneckClass::latency_bound;
      out.summary = fmt::format(
          "Latency-bound: neither {} ({:.0f}%) nor {} ({:.0f}%) reaches {:.0f}% of peak, so warps mostly "
          "wait; look at stalls, issue activity and occupancy.",
          labels.compute, compute_pct, labels.memory, memory_pct, kLowPct);
    }
  } else if (compute_pct - memory_pct >= kLeanDifference) {
    out.bottleneck = BottleneckClass::compute_bound;
    out.summary = fmt::format(
        "Leans compute-bound: {} at {:.0f}% of peak is {:.0f} points above {} ({:.0f}%), below the {:.0f}% "
        "roof.",
        labels.compute, compute_pct, compute_pct - memory_pct, labels.memory, memory_pct, kRoofPct);
  } else if (memory_pct - compute_pct >= kLeanDifference) {
    out.bottleneck = BottleneckClass::memory_bound;
    out.summary = fmt::format(
        "Leans memory-bound: {} at {:.0f}% of peak is {:.0f} points above {} ({:.0f}%), below the {:.0f}% "
        "roof.",
        labels.memory, memory_pct, memory_pct - compute_pct, labels.compute, compute_pct, kRoofPct);
  } else {
    out.bottleneck = BottleneckClass::balanced;
    out.summary = fmt::format(
        "Balanced: {} ({:.0f}%) and {} ({:.0f}%) are within {:.0f} points of each other and below the "
        "{:.0f}% roof.",
        labels.compute, compute_pct, labels.memory, memory_pct, kLeanDifference, kRoofPct);
  }
}

// The busiest memory unit among DRAM, L2 and L1 (ncu's SOL breakdown); nullopt without any.
std::optional<std::pair<MemoryLevel, double>> busiest_level(Metrics const& metrics) {
  std::array<std::pair<MemoryLevel, std::optional<double>>, 3> const levels{{
      {MemoryLevel::dram, analysis::lookup(metrics, metric::dram_throughput)},
      {MemoryLevel::l2, analysis::lookup(metrics, metric::l2_throughput)},
      {MemoryLevel::l1, analysis::lookup(metrics, metric::l1_throughput)},
  }};
  std::optional<std::pair<MemoryLevel, double>> best;
  for (auto const& [level, pct] : levels)
    if (pct && (!best || *pct > best->second)) best = std::pair{level, *pct};
  // A kernel that streams from DRAM also keeps the L2 busy with the same bytes passing through: DRAM is
  // the bottleneck when it is within kLeanDifference points of the busiest unit (ours; the H200
  // streaming copy measured DRAM 81%, L2 87%).
  if (best && best->first != MemoryLevel::dram && levels[0].second &&
      *levels[0].second >= best->second - kLeanDifference)
    best = std::pair{MemoryLevel::dram, *levels[0].second};
  return best;
}

std::string_view level_words(MemoryLevel level) {
  switch (level) {
    case MemoryLevel::dram: return "DRAM";
    case MemoryLevel::l2: return "the L2 cache";
    case MemoryLevel::l1: return "L1/shared memory";
  }
  return "memory";
}

}  // namespace

Classification classify(Metrics const& metrics, WorkFacts const& work) {
  std::optional<double> const sm = analysis::lookup(metrics, metric::sm_throughput);
  std::optional<double> const mem = analysis::lookup(metrics, metric::memory_throughput);
  if (!sm || !mem) {
    Classification fallback = classify_roofline(work);
    fallback.summary =
        fmt::format("No speed-of-light metrics ({} and {} are needed); from the work model: {}",
                    metric::sm_throughput, metric::memory_throughput, fallback.summary);
    return fallback;
  }
  Classification out;
  out.basis = ClassificationBasis::metrics;
  analysis::note(out.evidence, metric::sm_throughput, sm);
  analysis::note(out.evidence, metric::memory_throughput, mem);
  analysis::note(out.evidence, metric::dram_throughput, analysis::lookup(metrics, metric::dram_throughput));
  analysis::note(out.evidence, metric::l2_throughput, analysis::lookup(metrics, metric::l2_throughput));
  analysis::note(out.evidence, metric::l1_throughput, analysis::lookup(metrics, metric::l1_throughput));
  GridFill const grid = analysis::assess_grid(metrics, work);
  note_grid(out.evidence, grid);
  LaunchOverhead const launch = analysis::assess_launch_overhead(work);
  note_launch(out.evidence, launch);

  if (launch.bound) {
    out.bottleneck = BottleneckClass::launch_overhead_bound;
    out.summary = launch_sentence(launch, work);
    return out;
  }
  decide(*sm, *mem, grid, Labels{"SM throughput", "memory throughput"}, out);
  if (out.bottleneck == BottleneckClass::memory_bound) {
    if (auto const level = busiest_level(metrics)) {
      out.memory_level = level->first;
      out.summary +=
          fmt::format(" The busiest memory unit is {} at {:.0f}%.", level_words(level->first), level->second);
    }
  }
  return out;
}

Classification classify_roofline(WorkFacts const& work) {
  Classification out;
  DeviceCeilings const& ceilings = work.ceilings;
  std::optional<double> const seconds =
      work.median_us && *work.median_us > 0.0 ? std::optional<double>(*work.median_us * 1e-6) : std::nullopt;
  std::optional<double> memory_pct;
  std::optional<double> compute_pct;
  if (seconds && ceilings.dram_bytes_per_s > 0.0) {
    memory_pct = analysis::ratio(analysis::known(work.bytes), *seconds * ceilings.dram_bytes_per_s);
    if (memory_pct) *memory_pct *= 100.0;
  }
  double peak = ceilings.fp32_flops_per_s;
  if (work.tensor_cores_allowed) peak = std::max(peak, ceilings.tensor_flops_per_s);
  if (seconds && peak > 0.0) {
    compute_pct = analysis::ratio(analysis::known(work.flops), *seconds * peak);
    if (compute_pct) *compute_pct *= 100.0;
  }
  analysis::note(out.evidence, "derived.memory_pct_of_roofline", memory_pct);
  analysis::note(out.evidence, "derived.compute_pct_of_roofline", compute_pct);
  analysis::note(out.evidence, "work.median_us", analysis::known(work.median_us));
  GridFill const grid = analysis::assess_grid(Metrics{}, work);
  note_grid(out.evidence, grid);
  LaunchOverhead const launch = analysis::assess_launch_overhead(work);
  note_launch(out.evidence, launch);

  if (launch.bound) {
    out.basis = ClassificationBasis::roofline;
    out.bottleneck = BottleneckClass::launch_overhead_bound;
    out.summary = launch_sentence(launch, work);
    return out;
  }
  if (!memory_pct && !compute_pct) {
    out.basis = ClassificationBasis::none;
    out.bottleneck = BottleneckClass::balanced;
    out.summary =
        "Not classified: the roofline needs the measured median time, the work model's bytes or flops and "
        "the device ceilings (kopt calibrate).";
    return out;
  }
  out.basis = ClassificationBasis::roofline;
  decide(compute_pct.value_or(0.0), memory_pct.value_or(0.0), grid,
         Labels{"compute (work-model FLOP/s vs peak)", "memory (work-model bytes/s vs DRAM peak)"}, out);
  // The work model counts the bytes that must cross DRAM at least once.
  if (out.bottleneck == BottleneckClass::memory_bound) out.memory_level = MemoryLevel::dram;
  return out;
}

}  // namespace kopt
