#include "eval/trampoline.hpp"

#include <fmt/format.h>

namespace kopt {

std::string trampoline_symbol(Signature const& signature) { return "kopt_trampoline_" + signature.function; }

std::string trampoline_source(Signature const& signature) {
  std::string out = R"(
// ---- appended by kopt: calls the launcher with an argument array (see src/eval/trampoline.hpp) ----
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
namespace kopt_trampoline_detail {
template <class T> using Bare = std::remove_cv_t<std::remove_reference_t<T>>;
template <class... P, std::size_t... I>
inline void invoke(void (*f)(P...), void** a, std::index_sequence<I...>) { f(*static_cast<Bare<P>*>(a[I])...); }
template <class... P> inline void call(void (*f)(P...), void** a) { invoke(f, a, std::index_sequence_for<P...>{}); }
template <class... P> constexpr std::size_t arity(void (*)(P...)) { return sizeof...(P); }
template <std::size_t I, class... P> constexpr bool matches(void (*)(P...), std::size_t bytes, bool pointer) {
  if constexpr (I < sizeof...(P)) {
    using T = Bare<std::tuple_element_t<I, std::tuple<P...>>>;
    if constexpr (std::is_pointer_v<T>) {
      if constexpr (std::is_void_v<std::remove_cv_t<std::remove_pointer_t<T>>>) return pointer;
      else return pointer && sizeof(std::remove_pointer_t<T>) == bytes;
    } else {
      return !pointer && sizeof(T) == bytes;
    }
  } else {
    return false;
  }
}
}  // namespace kopt_trampoline_detail
)";
  auto const& fn = signature.function;
  std::size_t const n = signature.params.size();
  out += fmt::format("extern \"C\" void {}(void** a) {{\n", trampoline_symbol(signature));
  out += fmt::format(
      "  static_assert(kopt_trampoline_detail::arity(&{0}) == {1}, \"kopt: launcher '{0}' must take the {1} "
      "parameters declared in task.toml\");\n",
      fn, n);
  for (std::size_t i = 0; i < n; ++i) {
    auto const& p = signature.params[i];
    out += fmt::format(
        "  static_assert(kopt_trampoline_detail::matches<{0}>(&{1}, {2}, {3}), \"kopt: parameter {4} ('{5}') of "
        "'{1}' must be {6} as declared in task.toml\");\n",
        i, fn, size_of(p.dtype), p.is_pointer ? "true" : "false", i + 1, p.name,
        p.is_pointer ? fmt::format("a pointer to {}-byte elements ({})", size_of(p.dtype), to_string(p.dtype))
                     : fmt::format("a {}-byte scalar ({})", size_of(p.dtype), to_string(p.dtype)));
  }
  out += fmt::format("  kopt_trampoline_detail::call(&{}, a);\n}}\n", fn);
  return out;
}

}  // namespace kopt
