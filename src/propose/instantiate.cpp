// A strategy made concrete for a task: the library's common header, then the template with its
// placeholders replaced (docs/strategies.md, "Placeholders").
#include <fmt/format.h>

#include <cctype>
#include <map>

#include "kopt/propose.hpp"

namespace kopt {
namespace {

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])) != 0) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

}  // namespace

Result<std::string> instantiate_strategy(StrategyLibrary const& library, LibraryStrategy const& strategy,
                                         TaskSpec const& task, int arch_sm) {
  auto const applicability = check_applicability(strategy, task, arch_sm);
  if (!applicability.applies) {
    return make_error(ErrorCode::invalid_argument, "strategy '" + strategy.name + "' does not apply to " +
                                                       task.name + ": " + applicability.reason);
  }
  std::map<std::string, std::string, std::less<>> values(task.strategy_params.begin(),
                                                         task.strategy_params.end());
  values["T"] = applicability.element == DType::bf16 ? "__nv_bfloat16" : "float";
  values["ENTRY"] = task.signature.function;
  for (std::size_t i = 0; i < task.signature.params.size(); ++i) {
    values[fmt::format("ARG{}", i)] = task.signature.params[i].name;
  }

  std::string const& text = strategy.template_text;
  std::string out = fmt::format("// kopt strategy '{}' for task {} ({}), from {}\n", strategy.name, task.name,
                                values["T"], strategy.template_path.filename().string());
  // The compiler builds the candidate for this architecture-specific target (docs/compile.md).
  if (!strategy.arch.empty()) out += "// kopt:arch " + strategy.arch + "\n";
  out += library.common_header;
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "#line 1 \"" + strategy.template_path.filename().string() + "\"\n";
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto const open = text.find("{{", pos);
    if (open == std::string::npos) {
      out.append(text, pos, std::string::npos);
      break;
    }
    out.append(text, pos, open - pos);
    auto const line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(open), '\n');
    auto const close = text.find("}}", open + 2);
    auto const newline = text.find('\n', open);
    if (close == std::string::npos || (newline != std::string::npos && newline < close)) {
      return make_error(ErrorCode::invalid_spec,
                        fmt::format("{}:{}: '{{{{' is not closed on its line; expected "
                                    "{{{{NAME}}}}",
                                    strategy.template_path.string(), line));
    }
    std::string const name = text.substr(open + 2, close - open - 2);
    auto const value = values.find(name);
    if (!is_identifier(name) || value == values.end()) {
      return make_error(
          ErrorCode::invalid_spec,
          fmt::format("{}:{}: unknown placeholder '{{{{{}}}}}'; expected T, ENTRY, ARG0..ARG{} or a "
                      "[strategy_params] key of {}",
                      strategy.template_path.string(), line, name,
                      task.signature.params.empty() ? 0 : task.signature.params.size() - 1, task.name));
    }
    out += value->second;
    pos = close + 2;
  }
  return out;
}

}  // namespace kopt
