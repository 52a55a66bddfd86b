#include "analysis/tool_support.hpp"

#include <cmath>

#include "kopt/metric_names.hpp"

namespace kopt::analysis {

std::optional<double> lookup(Metrics const& metrics, std::string_view name) {
  auto const it = metrics.find(name);
  if (it == metrics.end() || !std::isfinite(it->second)) return std::nullopt;
  return it->second;
}

std::optional<double> known(std::optional<int> value) {
  if (!value) return std::nullopt;
  return static_cast<double>(*value);
}

std::optional<double> known(std::optional<std::int64_t> value) {
  if (!value) return std::nullopt;
  return static_cast<double>(*value);
}

std::optional<double> known(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return std::nullopt;
  return value;
}

std::optional<double> ratio(std::optional<double> numerator, std::optional<double> denominator) {
  if (!numerator || !denominator || !(*denominator > 0.0)) return std::nullopt;
  return *numerator / *denominator;
}

std::optional<double> sum_known(std::optional<double> a, std::optional<double> b) {
  if (!a && !b) return std::nullopt;
  return a.value_or(0.0) + b.value_or(0.0);
}

std::string stall_metric(std::string_view reason) {
  std::string name(metric::stall_prefix);
  name += reason;
  name += metric::stall_suffix;
  return name;
}

void note(Evidence& evidence, std::string_view name, std::optional<double> value) {
  if (value) evidence.insert_or_assign(std::string(name), *value);
}

Severity max_severity(Severity a, Severity b) noexcept {
  return static_cast<int>(a) >= static_cast<int>(b) ? a : b;
}

}  // namespace kopt::analysis
