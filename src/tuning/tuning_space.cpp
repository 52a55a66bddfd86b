// TuningSpace: configurations, their values, keys, flags and neighbours.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "kopt/tuning.hpp"
#include "tuning/tokens.hpp"

namespace kopt {

std::string_view to_string(ResourceTrend trend) noexcept {
  switch (trend) {
    case ResourceTrend::increasing: return "increasing";
    case ResourceTrend::decreasing: return "decreasing";
    case ResourceTrend::none: return "none";
  }
  return "none";
}

std::string Knob::value_text(std::size_t index) const {
  if (kind == KnobKind::integer) return std::to_string(values.at(index));
  return flags.at(index);
}

std::vector<std::size_t> TuningSpace::dimensions() const {
  std::vector<std::size_t> sizes;
  sizes.reserve(knobs_.size());
  for (Knob const& knob : knobs_) sizes.push_back(knob.size());
  return sizes;
}

std::uint64_t TuningSpace::raw_size() const noexcept {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t product = 1;
  for (Knob const& knob : knobs_) {
    std::uint64_t const n = knob.size();
    if (n != 0 && product > kMax / n) return kMax;
    product *= n;
  }
  return product;
}

Knob const* TuningSpace::find_knob(std::string_view name) const noexcept {
  for (Knob const& knob : knobs_) {
    if (knob.name == name) return &knob;
  }
  return nullptr;
}

Status TuningSpace::check_configuration(Configuration const& config) const {
  if (config.indices.size() != knobs_.size()) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("configuration has {} value indices; expected {} (one per knob)",
                                  config.indices.size(), knobs_.size()));
  }
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    if (config.indices[k] >= knobs_[k].size()) {
      return make_error(ErrorCode::invalid_argument,
                        fmt::format("knob {}: value index {} out of range; expected 0 to {}", knobs_[k].name,
                                    config.indices[k], knobs_[k].size() - 1));
    }
  }
  return Ok{};
}

Result<Configuration> TuningSpace::configuration(
    std::map<std::string, std::string, std::less<>> const& values) const {
  Configuration config;
  std::vector<std::string> problems;
  for (Knob const& knob : knobs_) {
    auto const it = values.find(knob.name);
    if (it == values.end()) {
      problems.push_back(fmt::format("knob {}: no value given", knob.name));
      continue;
    }
    std::size_t index = 0;
    while (index < knob.size() && knob.value_text(index) != it->second) ++index;
    if (index == knob.size()) {
      std::vector<std::string> allowed;
      for (std::size_t i = 0; i < knob.size(); ++i)
        allowed.push_back(fmt::format("\"{}\"", knob.value_text(i)));
      problems.push_back(fmt::format("knob {}: \"{}\" is not one of its values; expected one of {}",
                                     knob.name, it->second, fmt::join(allowed, ", ")));
      continue;
    }
    config.indices.push_back(index);
  }
  for (auto const& [name, value] : values) {
    if (find_knob(name) == nullptr) problems.push_back(fmt::format("'{}' is not a knob of this space", name));
  }
  if (!problems.empty())
    return make_error(ErrorCode::invalid_argument, fmt::format("{}", fmt::join(problems, "; ")));
  return config;
}

std::map<std::string, std::string, std::less<>> TuningSpace::values(Configuration const& config) const {
  if (auto status = check_configuration(config); !status) throw std::invalid_argument(status.error().message);
  std::map<std::string, std::string, std::less<>> result;
  for (std::size_t k = 0; k < knobs_.size(); ++k)
    result[knobs_[k].name] = knobs_[k].value_text(config.indices[k]);
  return result;
}

ScalarEnv TuningSpace::env(Configuration const& config) const {
  if (auto status = check_configuration(config); !status) throw std::invalid_argument(status.error().message);
  ScalarEnv result;
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    Knob const& knob = knobs_[k];
    std::size_t const index = config.indices[k];
    result[knob.name] =
        knob.kind == KnobKind::integer ? knob.values[index] : static_cast<std::int64_t>(index);
  }
  return result;
}

std::string TuningSpace::config_key(Configuration const& config) const {
  auto const named = values(config);  // sorted by name
  std::string key;
  for (auto const& [name, value] : named) {
    if (!key.empty()) key += ';';
    Knob const* knob = find_knob(name);
    key += knob->kind == KnobKind::integer ? fmt::format("{}={}", name, value)
                                           : fmt::format("{}=\"{}\"", name, value);
  }
  return key;
}

std::vector<std::string> TuningSpace::flags(Configuration const& config) const {
  if (auto status = check_configuration(config); !status) throw std::invalid_argument(status.error().message);
  std::vector<std::string> result;
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    Knob const& knob = knobs_[k];
    if (knob.kind == KnobKind::integer)
      result.push_back(fmt::format("-D{}={}", knob.name, knob.values[config.indices[k]]));
  }
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    Knob const& knob = knobs_[k];
    if (knob.kind != KnobKind::flag) continue;
    for (auto& argument : tuning_detail::split_arguments(knob.flags[config.indices[k]]))
      result.push_back(std::move(argument));
  }
  return result;
}

std::vector<Configuration> TuningSpace::neighbours(Configuration const& config) const {
  if (auto status = check_configuration(config); !status) throw std::invalid_argument(status.error().message);
  std::vector<Configuration> result;
  for (std::size_t k = 0; k < knobs_.size(); ++k) {
    if (config.indices[k] > 0) {
      Configuration down = config;
      --down.indices[k];
      result.push_back(std::move(down));
    }
    if (config.indices[k] + 1 < knobs_[k].size()) {
      Configuration up = config;
      ++up.indices[k];
      result.push_back(std::move(up));
    }
  }
  return result;
}

}  // namespace kopt
