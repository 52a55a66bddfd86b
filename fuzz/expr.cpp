// Integer expressions (include/kopt/expr.hpp): Expr::parse on the bytes, then evaluate with every
// identifier bound (to a small and to a huge value: the overflow checks) and with none. Seeds: the
// length, grid and work expressions of every task.toml.
#include "kopt/expr.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  auto expr = kopt::Expr::parse(std::string(reinterpret_cast<char const*>(data), size));
  if (!expr) return 0;
  (void)expr->evaluate({});
  kopt::ScalarEnv small;
  kopt::ScalarEnv huge;
  for (auto const& name : expr->identifiers()) {
    small[name] = 7;
    huge[name] = std::numeric_limits<std::int64_t>::max() - 1;
  }
  (void)expr->evaluate(small);
  (void)expr->evaluate(huge);
  return 0;
}
