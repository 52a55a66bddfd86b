// Whether a strategy applies to a task (docs/strategies.md, "Applicability"), and the order in which the
// proposer screens the applicable ones.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "kopt/propose.hpp"

namespace kopt {
namespace {

// The strategy's signature with T spelled as `element`, parsed like a task's entry signature.
Result<Signature> contract_for(LibraryStrategy const& strategy, DType element) {
  std::string const type = element == DType::bf16 ? "__nv_bfloat16" : "float";
  std::string text = std::regex_replace(strategy.signature, std::regex(R"(\bT\b)"), type);
  auto const open = text.find('(');
  if (open == std::string::npos) {
    return make_error(ErrorCode::invalid_spec, strategy.manifest.string() + ": strategy '" + strategy.name +
                                                   "': signature has no parameter list");
  }
  text = text.substr(0, open) + " kopt_contract" + text.substr(open);
  return parse_signature(text);
}

std::string describe(Param const& p) {
  return p.c_type;
}

// Empty when the task's parameters match the contract's, else the first difference.
std::string mismatch(Signature const& contract, Signature const& task) {
  if (contract.params.size() != task.params.size()) {
    return fmt::format("the task's entry has {} parameters, the strategy's contract {}", task.params.size(),
                       contract.params.size());
  }
  for (std::size_t i = 0; i < task.params.size(); ++i) {
    auto const& want = contract.params[i];
    auto const& have = task.params[i];
    if (want.is_pointer != have.is_pointer || want.is_const != have.is_const || want.dtype != have.dtype) {
      return fmt::format("parameter {} ('{}') is {}, the contract wants {}", i + 1, have.name, describe(have),
                         describe(want));
    }
  }
  return {};
}

}  // namespace

Applicability check_applicability(LibraryStrategy const& strategy, TaskSpec const& task, int arch_sm) {
  Applicability out;
  if (task.family.empty()) {
    out.reason = "the task declares no family";
    return out;
  }
  if (std::find(strategy.families.begin(), strategy.families.end(), task.family) == strategy.families.end()) {
    out.reason = "serves " + fmt::format("{}", fmt::join(strategy.families, ", ")) + ", not " + task.family;
    return out;
  }
  std::string first_mismatch;
  bool matched = false;
  for (DType element : {DType::f32, DType::bf16}) {
    auto contract = contract_for(strategy, element);
    if (!contract) {
      out.reason = "its signature does not parse: " + contract.error().message;
      return out;
    }
    auto const why = mismatch(*contract, task.signature);
    if (why.empty()) {
      out.element = element;
      matched = true;
      break;
    }
    if (first_mismatch.empty()) first_mismatch = why;
  }
  if (!matched) {
    out.reason = "signature: " + first_mismatch;
    return out;
  }
  if (std::find(strategy.dtypes.begin(), strategy.dtypes.end(), out.element) == strategy.dtypes.end()) {
    out.reason = "does not support " + std::string(to_string(out.element));
    return out;
  }
  if (!strategy.arch.empty() && arch_sm != 0 && arch_sm != strategy.min_arch) {
    out.reason = fmt::format("is built for {} only, the target is sm_{}", strategy.arch, arch_sm);
    return out;
  }
  if (arch_sm != 0 && arch_sm < strategy.min_arch) {
    out.reason = fmt::format("needs sm_{} or newer, the target is sm_{}", strategy.min_arch, arch_sm);
    return out;
  }
  for (auto const& param : strategy.params) {
    if (!task.strategy_params.contains(param)) {
      out.reason = "the task's [strategy_params] does not give '" + param + "'";
      return out;
    }
  }
  out.applies = true;
  return out;
}

std::vector<LibraryStrategy const*> choose_strategies(StrategyLibrary const& library, TaskSpec const& task,
                                                      int arch_sm, std::vector<std::string> const& signals) {
  std::vector<LibraryStrategy const*> out;
  for (auto const& s : library.strategies) {
    if (check_applicability(s, task, arch_sm).applies) out.push_back(&s);
  }
  auto const addressed = [&](LibraryStrategy const* s) {
    return std::any_of(s->addresses.begin(), s->addresses.end(), [&](std::string const& a) {
      return std::find(signals.begin(), signals.end(), a) != signals.end();
    });
  };
  std::stable_partition(out.begin(), out.end(), addressed);
  return out;
}

}  // namespace kopt
