// Helpers shared by the classifier and the tools: reading metrics and facts safely, ratios and
// severity ordering. Nothing here knows about a particular tool.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kopt/analysis.hpp"

namespace kopt::analysis {

// The metric's value when present and finite (NaN and infinities count as missing).
std::optional<double> lookup(Metrics const& metrics, std::string_view name);

// A fact as a double when known.
std::optional<double> known(std::optional<int> value);
std::optional<double> known(std::optional<std::int64_t> value);
std::optional<double> known(std::optional<double> value);

// a / b when both are known and b > 0.
std::optional<double> ratio(std::optional<double> numerator, std::optional<double> denominator);

// Sum of the known values; nullopt when none is known.
std::optional<double> sum_known(std::optional<double> a, std::optional<double> b);

// smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio
std::string stall_metric(std::string_view reason);

// Records `value` under `name` when known.
void note(Evidence& evidence, std::string_view name, std::optional<double> value);

Severity max_severity(Severity a, Severity b) noexcept;

}  // namespace kopt::analysis
