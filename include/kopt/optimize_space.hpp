// The tuning space of a candidate as a search space (kopt optimize), and a recorded evaluation as what the
// search sees of it. Separate from kopt/optimize.hpp, whose users (the CLI, the proposers' callers) need
// neither.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/result.hpp"
#include "kopt/run_log.hpp"
#include "kopt/search.hpp"
#include "kopt/tuning.hpp"

namespace kopt {

// ---- the space -----------------------------------------------------------------------------------

// A TuningSpace seen as a SearchSpace: one dimension per knob, a point is a configuration. A point is
// valid when the space's own pruning (constraints, precision rule, launch geometry) keeps it and no
// resource failure learned so far (InvalidConfigs) prunes it. Actions are the knob neighbours, named
// "KNOB:+1" / "KNOB:-1".
class TuningSearchSpace final : public SearchSpace {
 public:
  TuningSearchSpace(TuningSpace space, TuningRules rules, std::optional<Configuration> start = std::nullopt);

  std::vector<Dimension> dimensions() const override;
  bool is_valid(Point const& point) const override;
  std::vector<Action> actions(Point const& point) const override;
  std::optional<Point> start_point() const override;

  // Records a failure when it is a resource failure; returns whether it did.
  bool learn(Configuration const& config, CandidateStatus status, std::string_view message);
  std::optional<std::string> why_invalid(Point const& point) const;

  TuningSpace const& space() const noexcept { return space_; }
  TuningRules const& rules() const noexcept { return rules_; }
  InvalidConfigs const& invalid_configs() const noexcept { return invalid_; }

  static Configuration to_configuration(Point const& point);
  static Point to_point(Configuration const& config);

 private:
  TuningSpace space_;
  TuningRules rules_;
  InvalidConfigs invalid_;
  std::optional<Point> start_;
};

// The configuration nearest to the source's `#ifndef KNOB / #define KNOB value` defaults: per integer
// knob the listed value closest to the default, flag knobs at their first value. nullopt when the
// source gives no default for any integer knob.
std::optional<Configuration> default_configuration(TuningSpace const& space, std::string const& source);

struct TaskSpec;
// The source's tuning space as a search space under the task's rules (the launch geometry of its
// `// kopt:launch` line, else the task's; launcher sources have none), starting at the source's defaults;
// nullopt when the source declares no knob. `origin` names the source in errors.
Result<std::optional<TuningSearchSpace>> tuning_search_space_for(std::string const& source,
                                                                 TaskSpec const& task,
                                                                 std::string const& origin);

// ---- recorded evaluations as search outcomes ------------------------------------------------------

// outcome_of() (kopt/run_log.hpp) as a search Outcome; a verified kernel of a task that times no size
// scores as the reference (one size of 1 us against 1 us), so the search can compare it.
Outcome search_outcome(RecordedEvaluation const& evaluation,
                       OptimizeObjective objective = OptimizeObjective::runtime);

}  // namespace kopt
