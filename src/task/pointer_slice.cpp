// A pointer role bound to a slice of a task's buffer: "x + start" in [binding] (docs/strategies.md,
// "Binding").
#include <algorithm>

#include "kopt/task.hpp"
#include "kopt/text.hpp"

namespace kopt {

std::optional<PointerSlice> parse_pointer_slice(Signature const& signature, std::string_view text) {
  auto const plus = text.find('+');
  if (plus == std::string_view::npos) return std::nullopt;
  std::string const pointer(trim(text.substr(0, plus)));
  auto const& params = signature.params;
  auto const buffer =
      std::find_if(params.begin(), params.end(), [&](Param const& p) { return p.name == pointer; });
  if (buffer == params.end() || !buffer->is_pointer) return std::nullopt;
  auto offset = Expr::parse(std::string(trim(text.substr(plus + 1))));
  if (!offset) return std::nullopt;
  for (std::string const& name : offset->identifiers()) {
    auto const scalar =
        std::find_if(params.begin(), params.end(), [&](Param const& p) { return p.name == name; });
    if (scalar == params.end() || !scalar->is_scalar() || is_floating(scalar->dtype)) return std::nullopt;
  }
  return PointerSlice{pointer, offset->text()};
}

}  // namespace kopt
