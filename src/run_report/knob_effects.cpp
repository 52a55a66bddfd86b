// compute_knob_effects: which knobs mattered in a run, from the candidates' screen-tier geomeans.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <system_error>

#include "kopt/run_report.hpp"

namespace kopt {
namespace {

// The value as a finite number when all of its text is one ("16", "0.5", "-2"); else unset.
std::optional<double> number_of(std::string const& text) {
  double value = 0.0;
  char const* const first = text.data();
  char const* const last = first + text.size();
  auto const [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last || !std::isfinite(value)) return std::nullopt;
  return value;
}

// The candidate's screen geomean when it passed verification and the geomean is usable in ratios.
std::optional<double> ok_speedup(RunReportCandidate const& candidate) {
  if (candidate.status != CandidateStatus::ok || !candidate.screen_speedup) return std::nullopt;
  double const speedup = *candidate.screen_speedup;
  if (!std::isfinite(speedup) || speedup <= 0.0) return std::nullopt;
  return speedup;
}

std::optional<double> median_of(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  std::size_t const middle = values.size() / 2;
  if (values.size() % 2 == 1) return values[middle];
  return (values[middle - 1] + values[middle]) / 2.0;
}

// True when `knobs` has the same names as `base` and the same values except, possibly, for `knob`.
bool differs_at_most_in(KnobValues const& knobs, KnobValues const& base, std::string const& knob) {
  if (knobs.size() != base.size()) return false;
  return std::equal(knobs.begin(), knobs.end(), base.begin(), [&knob](auto const& a, auto const& b) {
    return a.first == b.first && (a.first == knob || a.second == b.second);
  });
}

// Numbers first, in numeric order ("8" < "16" < "128"); other values after them, in first-seen order.
void order_values(std::vector<KnobValueEffect>& values) {
  std::stable_sort(values.begin(), values.end(), [](KnobValueEffect const& a, KnobValueEffect const& b) {
    std::optional<double> const x = number_of(a.value);
    std::optional<double> const y = number_of(b.value);
    if (x && y) return *x < *y;
    return x.has_value() && !y.has_value();
  });
}

struct Context {
  std::vector<RunReportCandidate> const& candidates;
  KnobValues const* best_knobs = nullptr;  // unset without a best
  std::optional<double> best_speedup;      // the best's screen geomean (else its recorded one)
};

KnobEffect effect_of(std::string const& knob, Context const& context) {
  KnobEffect effect;
  effect.knob = knob;
  std::optional<std::string> best_value;
  if (context.best_knobs != nullptr) {
    auto const found = context.best_knobs->find(knob);
    if (found != context.best_knobs->end()) best_value = found->second;
  }
  effect.best_value = best_value;

  std::vector<KnobValueEffect> values;
  std::vector<std::vector<double>> speedups;  // per value, the ok screen geomeans
  std::map<std::string, std::size_t, std::less<>> index;
  for (RunReportCandidate const& candidate : context.candidates) {
    auto const value = candidate.knobs.find(knob);
    if (value == candidate.knobs.end()) continue;
    auto [at, inserted] = index.try_emplace(value->second, values.size());
    if (inserted) {
      values.push_back(KnobValueEffect{value->second, 0, 0, std::nullopt, std::nullopt, std::nullopt});
      speedups.emplace_back();
    }
    KnobValueEffect& entry = values[at->second];
    if (!candidate.status) continue;
    if (*candidate.status != CandidateStatus::ok) {
      ++entry.failed;
      continue;
    }
    ++entry.ok;
    std::optional<double> const speedup = ok_speedup(candidate);
    if (!speedup) continue;
    speedups[at->second].push_back(*speedup);
    // The first ok neighbour of the best that differs only in this knob (the best itself is taken below).
    if (best_value && value->second != *best_value && !entry.around_best &&
        differs_at_most_in(candidate.knobs, *context.best_knobs, knob)) {
      entry.around_best = speedup;
    }
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    KnobValueEffect& entry = values[i];
    if (!speedups[i].empty()) entry.best = *std::max_element(speedups[i].begin(), speedups[i].end());
    entry.median = median_of(std::move(speedups[i]));
    if (best_value && entry.value == *best_value) entry.around_best = context.best_speedup;
  }
  order_values(values);

  std::optional<double> lowest;
  std::optional<double> highest;
  for (KnobValueEffect const& entry : values) {
    if (!entry.median) continue;
    if (!lowest || *entry.median < *lowest) lowest = entry.median;
    if (!highest || *entry.median > *highest) highest = entry.median;
  }
  if (lowest && highest) effect.spread = *highest / *lowest;
  effect.values = std::move(values);
  return effect;
}

}  // namespace

std::vector<KnobEffect> compute_knob_effects(std::vector<RunReportCandidate> const& candidates,
                                             std::optional<RunReportBest> const& best) {
  std::set<std::string, std::less<>> names;
  for (RunReportCandidate const& candidate : candidates)
    for (auto const& [name, value] : candidate.knobs) names.insert(name);
  if (candidates.size() < 2 || names.empty()) return {};

  Context context{candidates, nullptr, std::nullopt};
  if (best) {
    context.best_knobs = &best->knobs;
    context.best_speedup = best->geomean_speedup;
    auto const found = std::find_if(candidates.begin(), candidates.end(),
                                    [&best](RunReportCandidate const& c) { return c.id == best->candidate; });
    if (found != candidates.end() && ok_speedup(*found)) context.best_speedup = ok_speedup(*found);
  }

  std::vector<KnobEffect> effects;
  effects.reserve(names.size());
  for (std::string const& name : names) effects.push_back(effect_of(name, context));
  std::stable_sort(effects.begin(), effects.end(), [](KnobEffect const& a, KnobEffect const& b) {
    if (a.spread && b.spread) return *a.spread > *b.spread;
    return a.spread.has_value() && !b.spread.has_value();
  });
  return effects;
}

}  // namespace kopt
