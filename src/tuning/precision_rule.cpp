// The precision rule: which compiler flags relax floating-point results, and which tasks allow them.
#include <algorithm>
#include <string_view>

#include "kopt/tuning.hpp"

namespace kopt {
namespace {

bool value_is(std::string_view option, std::string_view name, std::string_view a, std::string_view b) {
  if (!option.starts_with(name) || option.size() <= name.size() || option[name.size()] != '=') return false;
  std::string_view const value = option.substr(name.size() + 1);
  return value == a || value == b;
}

}  // namespace

bool relaxes_precision(std::string_view flag) noexcept {
  std::string_view option = flag;
  if (option.starts_with("--")) {
    option.remove_prefix(2);
  } else if (option.starts_with("-")) {
    option.remove_prefix(1);
  } else {
    return false;
  }
  return option == "use_fast_math" || value_is(option, "ftz", "true", "1") ||
         value_is(option, "prec-div", "false", "0") || value_is(option, "prec-sqrt", "false", "0") ||
         value_is(option, "prec_div", "false", "0") || value_is(option, "prec_sqrt", "false", "0");
}

TuningRules tuning_rules_for(TaskSpec const& task, std::optional<LaunchSpec> launch) {
  TuningRules rules;
  for (SizeCase const& size : task.sizes) rules.sizes.push_back(task.env_for(size));
  bool any_output = false;
  for (BufferSpec const& buffer : task.buffers) {
    if (!is_compared(buffer.role)) continue;
    double const rtol = task.tolerance_for(buffer.dtype).rtol;
    rules.output_rtol = any_output ? std::min(rules.output_rtol, rtol) : rtol;
    any_output = true;
  }
  rules.launch = std::move(launch);
  return rules;
}

}  // namespace kopt
