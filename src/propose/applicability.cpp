// Whether a strategy applies to a task (docs/strategies.md, "Applicability"), and the order in which the
// proposer screens the applicable ones.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "kopt/propose.hpp"

namespace kopt {

Applicability check_applicability(LibraryStrategy const& strategy, TaskSpec const& task, int arch_sm) {
  Applicability out;
  if (task.is_chain()) {
    out.reason =
        "the task is a chain: its stages are bound, each to its own family (docs/strategies.md, \"Chains\")";
    return out;
  }
  if (task.family.empty()) {
    out.family_inferred = true;  // any family whose contract binds (docs/strategies.md, "Family inference")
  } else if (std::find(strategy.families.begin(), strategy.families.end(), task.family) ==
             strategy.families.end()) {
    out.reason = "serves " + fmt::format("{}", fmt::join(strategy.families, ", ")) + ", not " + task.family;
    return out;
  }
  for (auto const& param : strategy.params) {
    if (!task.strategy_params.contains(param)) {
      out.reason = "the task's [strategy_params] does not give '" + param + "'";
      return out;
    }
  }
  if (!strategy.arch.empty() && arch_sm != 0 && arch_sm != strategy.min_arch) {
    out.reason = fmt::format("is built for {} only, the target is sm_{}", strategy.arch, arch_sm);
    return out;
  }
  if (arch_sm != 0 && arch_sm < strategy.min_arch) {
    out.reason = fmt::format("needs sm_{} or newer, the target is sm_{}", strategy.min_arch, arch_sm);
    return out;
  }
  BindingSearch search = enumerate_bindings(strategy, task);
  if (search.bindings.empty()) {
    out.reason = "its contract " + strategy.signature + " does not bind: " + search.reason;
    return out;
  }
  out.element = search.bindings.front().element;
  std::erase_if(search.bindings, [&](StrategyBinding const& b) {
    return std::find(strategy.dtypes.begin(), strategy.dtypes.end(), b.element) == strategy.dtypes.end();
  });
  if (search.bindings.empty()) {
    out.reason = "does not support " + std::string(to_string(out.element));
    return out;
  }
  out.bindings = std::move(search.bindings);
  out.element = out.bindings.front().element;
  out.applies = true;
  return out;
}

std::vector<LibraryStrategy const*> choose_strategies(StrategyLibrary const& library, TaskSpec const& task,
                                                      int arch_sm, std::vector<std::string> const& signals) {
  std::vector<LibraryStrategy const*> out;
  std::map<LibraryStrategy const*, std::tuple<std::size_t, std::size_t, std::size_t>> cost;
  for (auto const& s : library.strategies) {
    auto const a = check_applicability(s, task, arch_sm);
    if (!a.applies) continue;
    out.push_back(&s);
    // Parameters of the task's [strategy_params] the strategy does not read (it reads all of its own, or
    // it would not apply).
    std::size_t const unread = task.strategy_params.size() - s.params.size();
    cost[&s] = {unread, a.bindings.size(), s.template_text.size()};
  }
  // A task without a family verifies every strategy before tuning it. First those that read the most of
  // the task's [strategy_params] (they name the arithmetic of a family: a task that gives `map` and
  // `finish` is a loss, and a dot product that ignores them verifies only by accident), then the cheapest
  // to settle (the fewest plausible bindings to probe, then the smallest template to compile).
  if (task.family.empty()) {
    std::stable_sort(out.begin(), out.end(),
                     [&](LibraryStrategy const* x, LibraryStrategy const* y) { return cost[x] < cost[y]; });
  }
  auto const addressed = [&](LibraryStrategy const* s) {
    return std::any_of(s->addresses.begin(), s->addresses.end(), [&](std::string const& a) {
      return std::find(signals.begin(), signals.end(), a) != signals.end();
    });
  };
  std::stable_partition(out.begin(), out.end(), addressed);
  return out;
}

}  // namespace kopt
