// What a verified binding is stored under and as (docs/strategies.md, "Binding"): the task's key and the
// binding's roles.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <variant>

#include "kopt/propose.hpp"
#include "kopt/sha256.hpp"
#include "kopt/store.hpp"

namespace kopt {

std::string binding_task_key(TaskSpec const& task) {
  nlohmann::json what = nlohmann::json::object();
  what["entry"] = task.signature.function;
  for (Param const& p : task.signature.params) what["params"].push_back({p.name, p.c_type});
  for (BufferSpec const& b : task.buffers) {
    what["buffers"].push_back({b.name, to_string(b.dtype), to_string(b.role), b.length.text()});
    if (!b.affects_outputs) what["buffers"].back().push_back("affects_outputs = false");  // other bindings
  }
  for (ScalarSpec const& s : task.scalars) what["scalars"].push_back({s.name, to_string(s.dtype)});
  for (SizeCase const& size : task.sizes) {
    nlohmann::json values = nlohmann::json::object();
    for (auto const& [name, value] : size.values) {
      std::visit([&, &key = name](auto v) { values[key] = v; }, value);
    }
    what["sizes"].push_back({size.name, values, size.variables});
  }
  what["family"] = task.family;
  what["strategy_params"] = task.strategy_params;
  return task.name + ":" + sha256_hex(what.dump()).substr(0, 16);
}

std::map<std::string, std::string, std::less<>> binding_roles(StrategyBinding const& binding) {
  std::map<std::string, std::string, std::less<>> roles;
  for (RoleBinding const& r : binding.roles) {
    roles[r.role.name] = r.parameter.empty() ? r.value
                         : r.offset.empty()  ? r.parameter
                                             : r.parameter + " + " + r.offset;
  }
  return roles;
}

bool needs_verification(Applicability const& applicability) {
  StrategyBinding const& first = applicability.bindings.front();
  // An identity whose names another binding's contradict was ranked below it (enumerate_bindings), so an
  // identity ranked first is one its names agree with. But an output the task reads as well may be added
  // into rather than overwritten, which no name tells: then verification decides.
  bool const may_accumulate =
      std::any_of(applicability.bindings.begin(), applicability.bindings.end(), [](StrategyBinding const& b) {
        return std::any_of(b.roles.begin(), b.roles.end(),
                           [](RoleBinding const& r) { return r.accumulated; });
      });
  return applicability.family_inferred ||
         (applicability.bindings.size() > 1 && (!first.identity || may_accumulate));
}

VerifiedBinding const* find_verified_binding(std::vector<VerifiedBinding> const& verified,
                                             LibraryStrategy const& strategy,
                                             Applicability const& applicability,
                                             StrategyBinding const** plausible) {
  for (VerifiedBinding const& known : verified) {
    if (known.strategy != strategy.name || known.contract != strategy.signature) continue;
    for (StrategyBinding const& b : applicability.bindings) {
      if (b.describe() != known.binding) continue;
      if (plausible != nullptr) *plausible = &b;
      return &known;
    }
  }
  return nullptr;
}

}  // namespace kopt
