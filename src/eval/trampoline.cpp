#include "eval/trampoline.hpp"

#include <fmt/format.h>

namespace kopt {

std::string trampoline_symbol(Signature const& signature) {
  return "kopt_trampoline_" + signature.function;
}

std::string trampoline_source(Signature const& signature) {
  std::string out = R"(
// ---- appended by kopt: calls the launcher with an argument array (see src/eval/trampoline.hpp) ----
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
namespace kopt_trampoline_detail {
template <class T> using Bare = std::remove_cv_t<std::remove_reference_t<T>>;
// The launcher's status: 0 for a void launcher, the cudaError_t it returns otherwise.
template <class R, class... P, std::size_t... I>
inline int invoke(R (*f)(P...), void** a, std::index_sequence<I...>) {
  if constexpr (std::is_void_v<R>) {
    f(*static_cast<Bare<P>*>(a[I])...);
    return 0;
  } else {
    return static_cast<int>(f(*static_cast<Bare<P>*>(a[I])...));
  }
}
template <class R, class... P> inline int call(R (*f)(P...), void** a) { return invoke(f, a, std::index_sequence_for<P...>{}); }
template <class R, class... P> constexpr std::size_t arity(R (*)(P...)) { return sizeof...(P); }
template <class R, class... P> constexpr bool returns_void(R (*)(P...)) { return std::is_void_v<R>; }
template <class R, class... P> constexpr bool returns_error(R (*)(P...)) { return std::is_same_v<R, cudaError_t>; }
// kind: 0 integer, 1 float/double, 2 16-bit float class (__half, __nv_bfloat16)
template <class T> constexpr bool kind_is(int kind) {
  if (kind == 0) return std::is_integral_v<T>;
  if (kind == 1) return std::is_floating_point_v<T>;
  return !std::is_integral_v<T> && !std::is_floating_point_v<T>;
}
// lanes > 1: a vector or complex element (float2, cufftComplex) of `lanes` scalars of `bytes` each.
template <std::size_t I, class R, class... P>
constexpr bool matches(R (*)(P...), std::size_t bytes, bool pointer, int kind, std::size_t lanes = 1) {
  if constexpr (I < sizeof...(P)) {
    using T = Bare<std::tuple_element_t<I, std::tuple<P...>>>;
    if constexpr (std::is_pointer_v<T>) {
      using E = std::remove_cv_t<std::remove_pointer_t<T>>;
      if constexpr (std::is_void_v<E>) return pointer;
      else if (lanes > 1) return pointer && sizeof(E) == bytes * lanes && !std::is_arithmetic_v<E>;
      else return pointer && sizeof(E) == bytes && kind_is<E>(kind);
    } else {
      return !pointer && sizeof(T) == bytes && kind_is<T>(kind);
    }
  } else {
    return false;
  }
}
template <std::size_t I, class R, class... P>
constexpr bool is_stream(R (*)(P...)) {
  if constexpr (I < sizeof...(P)) return std::is_same_v<Bare<std::tuple_element_t<I, std::tuple<P...>>>, cudaStream_t>;
  else return false;
}
}  // namespace kopt_trampoline_detail
)";
  auto const& fn = signature.function;
  std::size_t const n = signature.params.size();
  out += fmt::format("extern \"C\" int {}(void** a) {{\n", trampoline_symbol(signature));
  out += signature.returns_error
             ? fmt::format(
                   "  static_assert(kopt_trampoline_detail::returns_error(&{0}), \"kopt: launcher '{0}' must "
                   "return cudaError_t as declared in task.toml\");\n",
                   fn)
             : fmt::format(
                   "  static_assert(kopt_trampoline_detail::returns_void(&{0}), \"kopt: launcher '{0}' must "
                   "return void as declared in task.toml\");\n",
                   fn);
  out += fmt::format(
      "  static_assert(kopt_trampoline_detail::arity(&{0}) == {1}, \"kopt: launcher '{0}' must take the {1} "
      "parameters declared in task.toml\");\n",
      fn, n);
  for (std::size_t i = 0; i < n; ++i) {
    auto const& p = signature.params[i];
    if (p.is_stream) {
      out += fmt::format(
          "  static_assert(kopt_trampoline_detail::is_stream<{0}>(&{1}), \"kopt: parameter {2} ('{3}') of "
          "'{1}' "
          "must be a cudaStream_t as declared in task.toml\");\n",
          i, fn, i + 1, p.name);
      continue;
    }
    std::string const what =
        !p.is_pointer ? fmt::format("a {}-byte scalar ({})", size_of(p.dtype), to_string(p.dtype))
        : p.lanes > 1
            ? fmt::format("a pointer to {}-byte elements of {} x {}",
                          size_of(p.dtype) * static_cast<std::size_t>(p.lanes), p.lanes, to_string(p.dtype))
            : fmt::format("a pointer to {}-byte elements ({})", size_of(p.dtype), to_string(p.dtype));
    out += fmt::format(
        "  static_assert(kopt_trampoline_detail::matches<{0}>(&{1}, {2}, {3}, {7}, {8}), \"kopt: parameter "
        "{4} "
        "('{5}') "
        "of '{1}' must be {6} as declared in task.toml\");\n",
        i, fn, size_of(p.dtype), p.is_pointer ? "true" : "false", i + 1, p.name, what,
        !is_floating(p.dtype) ? 0 : (size_of(p.dtype) == 2 ? 2 : 1), p.lanes);
  }
  out += fmt::format("  return kopt_trampoline_detail::call(&{}, a);\n}}\n", fn);
  return out;
}

}  // namespace kopt
