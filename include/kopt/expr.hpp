// Integer expressions over a task's scalar parameters: buffer lengths ("N*C"), launch geometry
// ("ceil_div(N, 256)"), work models ("2*M*N*K"). 64-bit signed, overflow- and zero-division-checked.
//
// Grammar (C precedence): ternary ?:, ||, &&, == !=, < <= > >=, + -, * / %, unary - !, calls,
// parentheses, integer literals, identifiers. Functions: min(a,b), max(a,b), ceil_div(a,b),
// abs(a), log2(a) (floor), pow(a,b), sqrt(a) (floor).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kopt/result.hpp"

namespace kopt {

using ScalarEnv = std::map<std::string, std::int64_t, std::less<>>;

class Expr {
 public:
  Expr();  // the constant 0
  // Parses `text`; the error message names the offending position.
  static Result<Expr> parse(std::string const& text);
  static Expr constant(std::int64_t value);

  Result<std::int64_t> evaluate(ScalarEnv const& env) const;
  std::string const& text() const noexcept { return text_; }
  // Identifiers the expression refers to (sorted, unique).
  std::vector<std::string> identifiers() const;

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<Node const> root_;
};

}  // namespace kopt
