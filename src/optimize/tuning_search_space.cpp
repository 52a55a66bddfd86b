// TuningSearchSpace: a TuningSpace (plus learned resource failures) seen by the search strategies.
#include <utility>

#include "kopt/compile.hpp"
#include "kopt/optimize_space.hpp"
#include "kopt/task.hpp"

namespace kopt {

TuningSearchSpace::TuningSearchSpace(TuningSpace space, TuningRules rules, std::optional<Configuration> start)
    : space_(space), rules_(std::move(rules)), invalid_(std::move(space)) {
  if (start) start_ = to_point(*start);
}

Configuration TuningSearchSpace::to_configuration(Point const& point) {
  Configuration config;
  config.indices.reserve(point.size());
  for (int index : point) config.indices.push_back(static_cast<std::size_t>(index < 0 ? 0 : index));
  return config;
}

Point TuningSearchSpace::to_point(Configuration const& config) {
  Point point;
  point.reserve(config.indices.size());
  for (std::size_t index : config.indices) point.push_back(static_cast<int>(index));
  return point;
}

std::vector<Dimension> TuningSearchSpace::dimensions() const {
  std::vector<Dimension> dims;
  for (Knob const& knob : space_.knobs()) dims.push_back(Dimension{knob.name, static_cast<int>(knob.size())});
  return dims;
}

std::optional<std::string> TuningSearchSpace::why_invalid(Point const& point) const {
  Configuration const config = to_configuration(point);
  if (auto reason = space_.why_invalid(config, rules_)) return reason;
  return invalid_.why_pruned(config);
}

bool TuningSearchSpace::is_valid(Point const& point) const {
  return !why_invalid(point).has_value();
}

std::vector<Action> TuningSearchSpace::actions(Point const& point) const {
  std::vector<Action> actions;
  auto const& knobs = space_.knobs();
  for (std::size_t d = 0; d < knobs.size() && d < point.size(); ++d) {
    for (int step : {-1, +1}) {
      Point target = point;
      target[d] += step;
      if (target[d] < 0 || target[d] >= static_cast<int>(knobs[d].size())) continue;
      if (!is_valid(target)) continue;
      actions.push_back(Action{knobs[d].name + (step > 0 ? ":+1" : ":-1"), std::move(target)});
    }
  }
  return actions;
}

std::optional<Point> TuningSearchSpace::start_point() const {
  if (start_ && is_valid(*start_)) return start_;
  return std::nullopt;
}

bool TuningSearchSpace::learn(Configuration const& config, CandidateStatus status, std::string_view message) {
  return invalid_.record(config, status, message);
}

Result<std::optional<TuningSearchSpace>> tuning_search_space_for(std::string const& source,
                                                                 TaskSpec const& task,
                                                                 std::string const& origin) {
  auto parsed = TuningSpace::parse(source, origin);
  if (!parsed) return parsed.error();
  if (parsed->empty()) return std::optional<TuningSearchSpace>();
  std::optional<LaunchSpec> launch;
  // Launcher-mode sources have neither (not_found): their geometry is their own business.
  if (auto annotated = candidate_launch(source, task.launch, task.signature.function)) {
    launch = std::move(*annotated);
  } else if (annotated.error().code != ErrorCode::not_found) {
    return annotated.error();
  }
  TuningRules rules = tuning_rules_for(task, launch);
  if (auto status = parsed->check_rules(rules); !status) return status.error();
  std::optional<Configuration> start = default_configuration(*parsed, source);
  return std::optional<TuningSearchSpace>(TuningSearchSpace(std::move(*parsed), std::move(rules), start));
}

}  // namespace kopt
