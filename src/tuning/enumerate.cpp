// Pruning and enumeration: pruned knob values (precision rule), constraints, launch geometry.
#include <fmt/format.h>

#include <array>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kopt/tuning.hpp"
#include "tuning/tokens.hpp"

namespace kopt {
namespace {

constexpr std::int64_t kMaxThreadsPerBlock = 1024;
constexpr std::array<std::int64_t, 3> kMaxBlockDims = {1024, 1024, 64};
constexpr std::array<std::int64_t, 3> kMaxGridDims = {2147483647, 65535, 65535};

std::string describe_size(ScalarEnv const& size) {
  std::vector<std::string> parts;
  parts.reserve(size.size());
  for (auto const& [name, value] : size) parts.push_back(fmt::format("{}={}", name, value));
  return fmt::format("{}", fmt::join(parts, ", "));
}

ScalarEnv merged(ScalarEnv const& knobs, ScalarEnv const& size) {
  ScalarEnv env = size;
  for (auto const& [name, value] : knobs) env[name] = value;
  return env;
}

bool uses_only_knobs(Expr const& expr, ScalarEnv const& knobs) {
  for (auto const& name : expr.identifiers()) {
    if (knobs.find(name) == knobs.end()) return false;
  }
  return true;
}

// Runs `check` once with the knobs alone when `exprs` use only knobs, else once per size case.
template <class Check>
std::optional<std::string> for_each_env(std::vector<Expr const*> const& exprs, ScalarEnv const& knobs,
                                        TuningRules const& rules, Check const& check) {
  bool knobs_only = true;
  for (Expr const* expr : exprs) knobs_only = knobs_only && uses_only_knobs(*expr, knobs);
  if (knobs_only || rules.sizes.empty()) return check(knobs, std::string());
  for (ScalarEnv const& size : rules.sizes) {
    if (auto why = check(merged(knobs, size), fmt::format(" for size {}", describe_size(size)))) return why;
  }
  return std::nullopt;
}

std::optional<std::string> constraint_failure(TuningSpace const& space, ScalarEnv const& knobs,
                                              TuningRules const& rules) {
  for (KnobConstraint const& constraint : space.constraints()) {
    auto why = for_each_env(
        {&constraint.expr}, knobs, rules,
        [&](ScalarEnv const& env, std::string const& where) -> std::optional<std::string> {
          auto const value = constraint.expr.evaluate(env);
          if (!value) {
            return fmt::format("constraint '{}' (line {}) cannot be evaluated{}: {}", constraint.expr.text(),
                               constraint.line, where, value.error().message);
          }
          if (*value == 0) {
            return fmt::format("constraint '{}' (line {}) does not hold{}", constraint.expr.text(),
                               constraint.line, where);
          }
          return std::nullopt;
        });
    if (why) return why;
  }
  return std::nullopt;
}

std::optional<std::string> check_dims(std::vector<Expr> const& dims, std::string_view field,
                                      std::array<std::int64_t, 3> const& limits, ScalarEnv const& env,
                                      std::string const& where, std::int64_t& product) {
  product = 1;
  for (std::size_t d = 0; d < dims.size() && d < 3; ++d) {
    auto const value = dims[d].evaluate(env);
    if (!value)
      return fmt::format("{} '{}' cannot be evaluated{}: {}", field, dims[d].text(), where,
                         value.error().message);
    if (*value < 1 || *value > limits[d]) {
      return fmt::format("{} dimension {} '{}' = {}{}; the limit is 1 to {}", field, d, dims[d].text(),
                         *value, where, limits[d]);
    }
    product = product > kMaxGridDims[0] / *value ? kMaxGridDims[0] : product * *value;  // saturates
  }
  return std::nullopt;
}

std::optional<std::string> launch_failure(LaunchSpec const& launch, ScalarEnv const& knobs,
                                          TuningRules const& rules) {
  std::vector<Expr const*> exprs;
  for (Expr const& e : launch.grid) exprs.push_back(&e);
  for (Expr const& e : launch.block) exprs.push_back(&e);
  exprs.push_back(&launch.shared_bytes);
  return for_each_env(
      exprs, knobs, rules, [&](ScalarEnv const& env, std::string const& where) -> std::optional<std::string> {
        std::int64_t product = 0;
        if (auto why = check_dims(launch.grid, "grid", kMaxGridDims, env, where, product)) return why;
        if (auto why = check_dims(launch.block, "block", kMaxBlockDims, env, where, product)) return why;
        if (product > kMaxThreadsPerBlock) {
          return fmt::format("block has {} threads{}; the limit is {}", product, where, kMaxThreadsPerBlock);
        }
        auto const shared = launch.shared_bytes.evaluate(env);
        if (!shared) {
          return fmt::format("shared '{}' cannot be evaluated{}: {}", launch.shared_bytes.text(), where,
                             shared.error().message);
        }
        if (*shared < 0) {
          return fmt::format("shared '{}' = {}{}; expected >= 0", launch.shared_bytes.text(), *shared, where);
        }
        return std::nullopt;
      });
}

}  // namespace

Status TuningSpace::check_rules(TuningRules const& rules) const {
  std::vector<std::string> problems;
  std::set<std::string, std::less<>> scalars;
  for (ScalarEnv const& size : rules.sizes) {
    for (auto const& [name, value] : size) scalars.insert(name);
  }
  for (Knob const& knob : knobs_) {
    if (scalars.contains(knob.name)) {
      problems.push_back(fmt::format("{}:{}: knob {}: has the name of a size scalar; expected another name",
                                     origin_, knob.line, knob.name));
    }
  }
  auto known_everywhere = [&](std::string const& name) {
    if (find_knob(name) != nullptr) return true;
    if (rules.sizes.empty()) return false;
    for (ScalarEnv const& size : rules.sizes) {
      if (size.find(name) == size.end()) return false;
    }
    return true;
  };
  auto const defined = [&] {
    std::vector<std::string> names;
    for (Knob const& knob : knobs_) names.push_back(knob.name);
    names.insert(names.end(), scalars.begin(), scalars.end());
    return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
  };
  for (KnobConstraint const& constraint : constraints_) {
    for (auto const& name : constraint.expr.identifiers()) {
      if (!known_everywhere(name)) {
        problems.push_back(
            fmt::format("{}:{}: kopt:constraint: '{}' uses unknown name '{}'; expected knobs or size "
                        "scalars ({})",
                        origin_, constraint.line, constraint.expr.text(), name, defined()));
      }
    }
  }
  if (rules.launch) {
    std::vector<Expr const*> exprs;
    for (Expr const& e : rules.launch->grid) exprs.push_back(&e);
    for (Expr const& e : rules.launch->block) exprs.push_back(&e);
    exprs.push_back(&rules.launch->shared_bytes);
    for (Expr const* expr : exprs) {
      for (auto const& name : expr->identifiers()) {
        if (!known_everywhere(name)) {
          problems.push_back(
              fmt::format("{}: launch geometry '{}' uses unknown name '{}'; expected knobs or size "
                          "scalars ({})",
                          origin_, expr->text(), name, defined()));
        }
      }
    }
  }
  if (!problems.empty())
    return make_error(ErrorCode::invalid_spec, fmt::format("{}", fmt::join(problems, "\n")));
  return Ok{};
}

std::optional<std::string> TuningSpace::pruned_value_reason(std::size_t knob, std::size_t index,
                                                            TuningRules const& rules) const {
  Knob const& k = knobs_[knob];
  if (k.kind != KnobKind::flag) return std::nullopt;
  for (std::string const& argument : tuning_detail::split_arguments(k.flags[index])) {
    if (!relaxes_precision(argument)) continue;
    if (rules.output_rtol < kMinRtolForRelaxedPrecision) {
      return fmt::format(
          "{} relaxes floating-point precision, allowed only when every output's rtol is at "
          "least {:g}; the task's smallest output rtol is {:g}",
          argument, kMinRtolForRelaxedPrecision, rules.output_rtol);
    }
  }
  return std::nullopt;
}

std::optional<std::string> TuningSpace::why_invalid(Configuration const& config,
                                                    TuningRules const& rules) const {
  if (auto status = check_configuration(config); !status) return status.error().message;
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    if (auto why = pruned_value_reason(k, config.indices[k], rules)) {
      return fmt::format("{}=\"{}\": {}", knobs_[k].name, knobs_[k].value_text(config.indices[k]), *why);
    }
  }
  ScalarEnv const knobs = env(config);
  if (auto why = constraint_failure(*this, knobs, rules)) return why;
  if (rules.launch) {
    if (auto why = launch_failure(*rules.launch, knobs, rules)) return why;
  }
  return std::nullopt;
}

Result<Enumeration> TuningSpace::enumerate(TuningRules const& rules) const {
  if (auto status = check_rules(rules); !status) return status.error();
  Enumeration result;
  result.raw_count = raw_size();
  std::vector<std::vector<std::size_t>> allowed(knobs_.size());
  std::uint64_t allowed_count = 1;
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    for (std::size_t i = 0; i < knobs_[k].size(); ++i) {
      if (auto why = pruned_value_reason(k, i, rules)) {
        result.pruned_values.push_back(PrunedValue{knobs_[k].name, knobs_[k].value_text(i), *why});
      } else {
        allowed[k].push_back(i);
      }
    }
    std::uint64_t const n = allowed[k].size();
    if (n != 0 && allowed_count > rules.max_configurations / n) {
      allowed_count = rules.max_configurations + 1;
    } else {
      allowed_count *= n;
    }
  }
  if (allowed_count > rules.max_configurations) {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("{}: the tuning space has more than {} configurations (raw {}); expected fewer: "
                    "narrow the ranges or split the space",
                    origin_, rules.max_configurations, result.raw_count));
  }
  result.pruned_by_values = result.raw_count - allowed_count;
  if (allowed_count == 0) return result;

  std::vector<std::size_t> position(knobs_.size(), 0);  // index into allowed[k]
  Configuration config;
  config.indices.resize(knobs_.size());
  while (true) {
    for (std::size_t k = 0; k < knobs_.size(); ++k) config.indices[k] = allowed[k][position[k]];
    ScalarEnv const knobs = env(config);
    if (constraint_failure(*this, knobs, rules)) {
      ++result.pruned_by_constraints;
    } else if (rules.launch && launch_failure(*rules.launch, knobs, rules)) {
      ++result.pruned_by_launch;
    } else {
      result.valid.push_back(config);
    }
    // Odometer: the last knob moves fastest, so configurations come in lexicographic index order.
    std::size_t k = knobs_.size();
    while (k > 0) {
      --k;
      if (++position[k] < allowed[k].size()) break;
      position[k] = 0;
      if (k == 0) return result;
    }
    if (knobs_.empty()) return result;
  }
}

}  // namespace kopt
