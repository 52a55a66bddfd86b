// plan_size_dispatch: which of a session's verified kernels runs each timed size case, when not one kernel is
// the fastest at every size (docs/strategies.md, "Dispatch by size").
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kopt/propose.hpp"

namespace kopt {
namespace {

// Timed size cases that the launcher's integer scalars cannot tell apart: one kernel serves them all.
struct CaseGroup {
  std::vector<std::int64_t> point;
  std::vector<std::string> sizes;
};

std::vector<std::string> integer_scalars(TaskSpec const& task) {
  std::vector<std::string> names;
  for (Param const& p : task.signature.params) {
    if (p.is_scalar() && !is_floating(p.dtype)) names.push_back(p.name);
  }
  return names;
}

std::vector<CaseGroup> timed_groups(TaskSpec const& task, std::vector<std::string> const& scalars) {
  std::vector<CaseGroup> groups;
  for (SizeCase const& size : task.sizes) {
    if (size.verify_only) continue;
    std::vector<std::int64_t> point;
    for (std::string const& name : scalars) {
      auto const it = size.values.find(name);
      auto const* value = it == size.values.end() ? nullptr : std::get_if<std::int64_t>(&it->second);
      point.push_back(value != nullptr ? *value : 0);
    }
    auto group =
        std::find_if(groups.begin(), groups.end(), [&](CaseGroup const& g) { return g.point == point; });
    if (group == groups.end()) {
      groups.push_back(CaseGroup{std::move(point), {size.name}});
    } else {
      group->sizes.push_back(size.name);
    }
  }
  return groups;
}

// The candidate's geomean speedup over `sizes` (every one of which it has).
double geomean_over(ScreenedCandidate const& candidate, std::vector<std::string> const& sizes) {
  double log_sum = 0.0;
  for (std::string const& size : sizes) log_sum += std::log(candidate.speedups.find(size)->second);
  return std::exp(log_sum / static_cast<double>(sizes.size()));
}

bool complete(ScreenedCandidate const& candidate, std::vector<CaseGroup> const& groups) {
  for (CaseGroup const& group : groups) {
    for (std::string const& size : group.sizes) {
      auto const it = candidate.speedups.find(size);
      if (it == candidate.speedups.end() || !(it->second > 0.0) || !std::isfinite(it->second)) return false;
    }
  }
  return true;
}

// Per group, the index (into `screened`) of the best of `pool`; ties go to the earlier candidate.
std::vector<std::size_t> best_per_group(std::vector<ScreenedCandidate> const& screened,
                                        std::vector<std::size_t> const& pool,
                                        std::vector<CaseGroup> const& groups) {
  std::vector<std::size_t> chosen;
  for (CaseGroup const& group : groups) {
    std::size_t best = pool.front();
    double best_value = geomean_over(screened[best], group.sizes);
    for (std::size_t index : pool) {
      double const value = geomean_over(screened[index], group.sizes);
      if (value > best_value) {
        best = index;
        best_value = value;
      }
    }
    chosen.push_back(best);
  }
  return chosen;
}

// The geomean over every timed case when each group runs its chosen candidate.
double predicted(std::vector<ScreenedCandidate> const& screened, std::vector<CaseGroup> const& groups,
                 std::vector<std::size_t> const& chosen) {
  double log_sum = 0.0;
  std::size_t cases = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::string const& size : groups[g].sizes) {
      log_sum += std::log(screened[chosen[g]].speedups.find(size)->second);
      ++cases;
    }
  }
  return std::exp(log_sum / static_cast<double>(cases));
}

}  // namespace

SizeDispatchChoice plan_size_dispatch(TaskSpec const& task, std::vector<ScreenedCandidate> const& screened,
                                      double min_gain) {
  SizeDispatchChoice choice;
  std::vector<std::string> const scalars = integer_scalars(task);
  std::vector<CaseGroup> const groups = timed_groups(task, scalars);
  if (groups.size() < 2) {
    choice.reason = groups.empty()
                        ? "the task times no size case"
                        : "the launcher's integer parameters take one set of values over the timed "
                          "size cases, so one kernel serves them all";
    return choice;
  }
  std::vector<std::size_t> usable;
  for (std::size_t i = 0; i < screened.size(); ++i) {
    if (complete(screened[i], groups)) usable.push_back(i);
  }
  if (usable.empty()) {
    choice.reason = "no verified kernel has a screen timing on every timed size case";
    return choice;
  }
  std::vector<std::string> all_sizes;
  for (CaseGroup const& group : groups)
    all_sizes.insert(all_sizes.end(), group.sizes.begin(), group.sizes.end());
  std::size_t single = usable.front();
  for (std::size_t index : usable) {
    if (geomean_over(screened[index], all_sizes) > geomean_over(screened[single], all_sizes)) single = index;
  }
  double const single_speedup = geomean_over(screened[single], all_sizes);

  // Variants are compiled into one file: they must share their compiler flags.
  std::vector<std::vector<std::string>> flag_sets;
  for (std::size_t index : usable) {
    if (screened[index].any_flags) continue;  // it joins every set
    if (std::find(flag_sets.begin(), flag_sets.end(), screened[index].input.flags) == flag_sets.end())
      flag_sets.push_back(screened[index].input.flags);
  }
  if (flag_sets.empty()) flag_sets.emplace_back();
  std::vector<std::size_t> chosen;
  double chosen_speedup = 0.0;
  std::vector<std::string> chosen_flags;
  for (auto const& flags : flag_sets) {
    std::vector<std::size_t> pool;
    for (std::size_t index : usable) {
      if (screened[index].any_flags || screened[index].input.flags == flags) pool.push_back(index);
    }
    auto per_group = best_per_group(screened, pool, groups);
    double const value = predicted(screened, groups, per_group);
    if (chosen.empty() || value > chosen_speedup) {
      chosen = std::move(per_group);
      chosen_speedup = value;
      chosen_flags = flags;
    }
  }
  std::vector<std::size_t> distinct;
  for (std::size_t index : chosen) {
    if (std::find(distinct.begin(), distinct.end(), index) == distinct.end()) distinct.push_back(index);
  }
  if (distinct.size() < 2) {
    choice.reason = fmt::format("one kernel ({}, {}) is the fastest at every timed size",
                                screened[distinct.front()].strategy, screened[distinct.front()].input.name);
    return choice;
  }
  if (chosen_speedup < single_speedup * min_gain) {
    choice.reason = fmt::format(
        "a kernel per size would gain {:.1f} % over the best single kernel ({}), less than the {:.1f} % a "
        "dispatch must promise",
        (chosen_speedup / single_speedup - 1.0) * 100.0, screened[single].strategy, (min_gain - 1.0) * 100.0);
    return choice;
  }

  SizeDispatchPlan plan;
  plan.scalars = scalars;
  plan.flags = chosen_flags;
  plan.predicted_speedup = chosen_speedup;
  plan.single_speedup = single_speedup;
  plan.single_strategy = screened[single].strategy;
  for (std::size_t index : distinct) {
    plan.variants.push_back(SizeDispatchPlan::Variant{screened[index].strategy, screened[index].input, {}});
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    auto const variant =
        static_cast<std::size_t>(std::find(distinct.begin(), distinct.end(), chosen[g]) - distinct.begin());
    for (std::string const& size : groups[g].sizes) {
      plan.cases.push_back(SizeDispatchPlan::Case{size, groups[g].point, variant});
      plan.variants[variant].sizes.push_back(size);
    }
  }
  choice.plan = std::move(plan);
  return choice;
}

}  // namespace kopt
