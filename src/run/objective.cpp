// OptimizeObjective: its names on the command line and in the run's options, and its label in summaries.
#include "kopt/run_log.hpp"

namespace kopt {

std::string_view to_string(OptimizeObjective objective) noexcept {
  switch (objective) {
    case OptimizeObjective::runtime: return "runtime";
    case OptimizeObjective::energy: return "energy";
    case OptimizeObjective::composite: return "composite";
  }
  return "runtime";
}

std::optional<OptimizeObjective> optimize_objective_from_string(std::string_view text) noexcept {
  if (text == "runtime") return OptimizeObjective::runtime;
  if (text == "energy") return OptimizeObjective::energy;
  if (text == "composite") return OptimizeObjective::composite;
  return std::nullopt;
}

std::string_view objective_label(OptimizeObjective objective) noexcept {
  switch (objective) {
    case OptimizeObjective::runtime: return "speedup";
    case OptimizeObjective::energy: return "energy gain";
    case OptimizeObjective::composite: return "composite";
  }
  return "speedup";
}

}  // namespace kopt
