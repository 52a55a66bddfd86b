#include "cli/tunable_candidate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>

#include "kopt/compile.hpp"
#include "kopt/optimize.hpp"
#include "kopt/optimize_space.hpp"
#include "kopt/tuning.hpp"

namespace kopt::cli {
namespace {

// NAME's integer value in a -DNAME=value flag, the last one winning as with the compiler.
std::optional<std::int64_t> defined_in(std::vector<std::string> const& flags, std::string const& name) {
  std::optional<std::int64_t> value;
  std::string const prefix = "-D" + name + "=";
  for (std::string const& flag : flags) {
    if (!flag.starts_with(prefix)) continue;
    std::string_view const text = std::string_view(flag).substr(prefix.size());
    std::int64_t parsed = 0;
    auto const [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (ec == std::errc{} && end == text.data() + text.size()) value = parsed;
  }
  return value;
}

// Whether the source's launch line names one of the space's knobs.
bool launch_names_a_knob(TuningSpace const& space, LaunchSpec const& launch) {
  auto names_one = [&](Expr const& e) {
    auto const ids = e.identifiers();
    return std::any_of(space.knobs().begin(), space.knobs().end(),
                       [&](Knob const& k) { return std::find(ids.begin(), ids.end(), k.name) != ids.end(); });
  };
  return std::any_of(launch.grid.begin(), launch.grid.end(), names_one) ||
         std::any_of(launch.block.begin(), launch.block.end(), names_one) || names_one(launch.shared_bytes);
}

}  // namespace

Result<std::vector<std::string>> concretise_tunable_candidates(TaskSpec const& task,
                                                               std::vector<CandidateSource>& candidates,
                                                               std::vector<std::string> const& flags) {
  std::vector<std::string> notes;
  for (CandidateSource& candidate : candidates) {
    if (detect_mode(candidate.source, task.signature.function) == CandidateMode::launcher) continue;
    auto space = TuningSpace::parse(candidate.source, candidate.name);
    if (!space || space->empty()) continue;  // not tunable, or its knob lines are wrong: eval says so itself
    auto launch = candidate_launch(candidate.source, task.launch, task.signature.function);
    if (!launch || !launch_names_a_knob(*space, *launch)) continue;

    kopt::Configuration config =
        default_configuration(*space, candidate.source).value_or(kopt::Configuration{{}});
    config.indices.resize(space->knobs().size(), 0);
    std::vector<std::string> all_flags = flags;
    all_flags.insert(all_flags.end(), candidate.flags.begin(), candidate.flags.end());
    std::vector<std::string> from_flags;
    for (std::size_t k = 0; k < space->knobs().size(); ++k) {
      Knob const& knob = space->knobs()[k];
      if (knob.kind != KnobKind::integer) continue;
      auto const value = defined_in(all_flags, knob.name);
      if (!value) continue;
      auto const at = std::find(knob.values.begin(), knob.values.end(), *value);
      if (at == knob.values.end()) {
        return make_error(
            ErrorCode::invalid_argument,
            fmt::format("candidate '{}': -D{}={} is not a value of its knob {} (line {}); expected "
                        "one of {}",
                        candidate.name, knob.name, *value, knob.name, knob.line,
                        fmt::join(knob.values, ", ")));
      }
      config.indices[k] = static_cast<std::size_t>(at - knob.values.begin());
      from_flags.push_back(knob.name);
    }
    auto concrete = materialise(*space, config, candidate.source, task);
    if (!concrete) {
      return make_error(concrete.error().code,
                        fmt::format("candidate '{}': {}", candidate.name, concrete.error().message));
    }
    candidate.source = std::move(concrete->source);
    candidate.flags.insert(candidate.flags.end(), concrete->flags.begin(), concrete->flags.end());
    notes.push_back(fmt::format(
        "kopt: candidate {} is tunable: evaluating {} ({}; kopt optimize {} --from {} searches the others)",
        candidate.name, concrete->name,
        from_flags.empty()
            ? std::string("its defaults")
            : fmt::format("{} from -D flags, the rest its defaults", fmt::join(from_flags, ", ")),
        task.dir.string(), candidate.path.string()));
  }
  return notes;
}

}  // namespace kopt::cli
