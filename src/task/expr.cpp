// Integer expressions: a recursive-descent parser to an immutable AST, and checked int64 evaluation.
#include "kopt/expr.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <string_view>
#include <utility>

namespace kopt {

struct Expr::Node {
  enum class Kind { literal, identifier, unary, binary, ternary, call };
  Kind kind = Kind::literal;
  std::int64_t value = 0;  // literal
  std::string name;        // identifier, operator or function name
  std::vector<std::shared_ptr<Node const>> args;
  int depth = 1;  // height of this subtree
};

namespace {

using NodePtr = std::shared_ptr<Expr::Node const>;
using Kind = Expr::Node::Kind;

// Deeper expressions are rejected so that parsing and evaluation recursion stays bounded.
constexpr int kMaxDepth = 200;

struct Function {
  std::string_view name;
  std::size_t arity;
};

constexpr Function kFunctions[] = {{"min", 2},  {"max", 2}, {"ceil_div", 2}, {"abs", 1},
                                   {"log2", 1}, {"pow", 2}, {"sqrt", 1}};

std::string function_list() {
  std::string out;
  for (auto const& f : kFunctions) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_ident_char(char c) {
  return is_ident_start(c) || is_digit(c);
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

class Parser {
 public:
  explicit Parser(std::string const& text) : text_(text) {}

  Result<NodePtr> parse() {
    auto node = ternary();
    if (!error_.empty()) return make_error(ErrorCode::invalid_argument, error_);
    skip_space();
    if (pos_ < text_.size()) {
      fail("unexpected '" + std::string(1, text_[pos_]) + "'", "an operator or end of expression");
      return make_error(ErrorCode::invalid_argument, error_);
    }
    return node;
  }

 private:
  // Records the first error only; later calls are no-ops so the parser can unwind.
  void fail(std::string const& what, std::string const& expected) {
    if (!error_.empty()) return;
    std::string where = pos_ < text_.size()
                            ? "at column " + std::to_string(pos_ + 1)
                            : "at end of expression (column " + std::to_string(pos_ + 1) + ")";
    error_ = what + " " + where + " in '" + text_ + "'";
    if (!expected.empty()) error_ += "; expected " + expected;
  }

  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }

  // Consumes `op` when it is next (and, for single-char ops, not the prefix of a longer one).
  bool accept(std::string_view op) {
    skip_space();
    if (text_.compare(pos_, op.size(), op) != 0) return false;
    if (op.size() == 1 && pos_ + 1 < text_.size()) {
      char next = text_[pos_ + 1];
      if ((op == "<" || op == ">" || op == "!" || op == "=") && next == '=') return false;
      if (op == "&" && next == '&') return false;
      if (op == "|" && next == '|') return false;
    }
    pos_ += op.size();
    return true;
  }

  std::shared_ptr<Expr::Node> make(Kind kind, std::string name, std::vector<NodePtr> args) {
    auto node = std::make_shared<Expr::Node>();
    node->kind = kind;
    node->name = std::move(name);
    int depth = 0;
    for (auto const& a : args) depth = std::max(depth, a ? a->depth : 0);
    node->depth = depth + 1;
    node->args = std::move(args);
    if (node->depth > kMaxDepth && error_.empty()) {
      fail("expression nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)", "");
    }
    return node;
  }

  bool enter() {
    if (++nesting_ > kMaxDepth) {
      fail("expression nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)", "");
      return false;
    }
    return true;
  }

  NodePtr ternary() {
    struct Guard {  // NOLINT(cppcoreguidelines-special-member-functions): a scope guard, never copied
      int& n;
      ~Guard() { --n; }
    } guard{nesting_};
    if (!enter()) return nullptr;
    auto cond = logical_or();
    if (!error_.empty()) return nullptr;
    if (!accept("?")) return cond;
    auto then_branch = ternary();
    if (!error_.empty()) return nullptr;
    if (!accept(":")) {
      fail("missing ':' of '?:'", "':'");
      return nullptr;
    }
    auto else_branch = ternary();
    if (!error_.empty()) return nullptr;
    return make(Kind::ternary, "?:", {cond, then_branch, else_branch});
  }

  template <class Next>
  NodePtr binary_level(std::initializer_list<std::string_view> ops, Next next) {
    auto left = (this->*next)();
    while (error_.empty()) {
      bool matched = false;
      for (auto op : ops) {
        if (accept(op)) {
          auto right = (this->*next)();
          if (!error_.empty()) return nullptr;
          left = make(Kind::binary, std::string(op), {left, right});
          matched = true;
          break;
        }
      }
      if (!matched) break;
    }
    return error_.empty() ? left : nullptr;
  }

  NodePtr logical_or() { return binary_level({"||"}, &Parser::logical_and); }
  NodePtr logical_and() { return binary_level({"&&"}, &Parser::equality); }
  NodePtr equality() { return binary_level({"==", "!="}, &Parser::relational); }
  NodePtr relational() { return binary_level({"<=", ">=", "<", ">"}, &Parser::additive); }
  NodePtr additive() { return binary_level({"+", "-"}, &Parser::multiplicative); }
  NodePtr multiplicative() { return binary_level({"*", "/", "%"}, &Parser::unary); }

  NodePtr unary() {
    struct Guard {  // NOLINT(cppcoreguidelines-special-member-functions): a scope guard, never copied
      int& n;
      ~Guard() { --n; }
    } guard{nesting_};
    if (!enter()) return nullptr;
    for (std::string_view op : {"-", "!", "+"}) {
      if (accept(op)) {
        auto operand = unary();
        if (!error_.empty()) return nullptr;
        if (op == "+") return operand;
        return make(Kind::unary, std::string(op), {operand});
      }
    }
    return primary();
  }

  NodePtr primary() {
    skip_space();
    if (pos_ >= text_.size()) {
      fail("missing operand", "a number, a name, a function call or '('");
      return nullptr;
    }
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      auto inner = ternary();
      if (!error_.empty()) return nullptr;
      if (!accept(")")) {
        fail("unclosed '('", "')'");
        return nullptr;
      }
      return inner;
    }
    if (is_digit(c)) return number();
    if (is_ident_start(c)) return name_or_call();
    fail("unexpected '" + std::string(1, c) + "'", "a number, a name, a function call or '('");
    return nullptr;
  }

  NodePtr number() {
    std::size_t start = pos_;
    std::int64_t value = 0;
    while (pos_ < text_.size() && is_digit(text_[pos_])) {
      auto digit = static_cast<std::int64_t>(text_[pos_] - '0');
      if (__builtin_mul_overflow(value, std::int64_t{10}, &value) ||
          __builtin_add_overflow(value, digit, &value)) {
        pos_ = start;
        fail("integer literal too large", "a value below 2^63");
        return nullptr;
      }
      ++pos_;
    }
    if (pos_ < text_.size() && (is_ident_start(text_[pos_]) || text_[pos_] == '.')) {
      fail("unexpected '" + std::string(1, text_[pos_]) + "' after a number",
           "an integer literal (no fractions, exponents or suffixes)");
      return nullptr;
    }
    auto node = make(Kind::literal, "", {});
    node->value = value;
    return node;
  }

  NodePtr name_or_call() {
    std::size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    std::string name = text_.substr(start, pos_ - start);
    std::size_t after_name = pos_;
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != '(') {
      pos_ = after_name;
      return make(Kind::identifier, name, {});
    }
    auto const* fn = std::find_if(std::begin(kFunctions), std::end(kFunctions),
                                  [&](Function const& f) { return f.name == name; });
    if (fn == std::end(kFunctions)) {
      pos_ = start;
      fail("unknown function '" + name + "'", "one of " + function_list());
      return nullptr;
    }
    ++pos_;  // '('
    std::vector<NodePtr> args;
    skip_space();
    if (!accept(")")) {
      while (true) {
        auto arg = ternary();
        if (!error_.empty()) return nullptr;
        args.push_back(arg);
        if (accept(",")) continue;
        if (accept(")")) break;
        fail("unclosed call of " + name + "()", "',' or ')'");
        return nullptr;
      }
    }
    if (args.size() != fn->arity) {
      pos_ = start;
      fail(name + "() takes " + std::to_string(fn->arity) + " argument" + (fn->arity == 1 ? "" : "s") +
               ", got " + std::to_string(args.size()),
           std::to_string(fn->arity) + " argument" + (fn->arity == 1 ? "" : "s"));
      return nullptr;
    }
    return make(Kind::call, name, std::move(args));
  }

  std::string const& text_;
  std::size_t pos_ = 0;
  int nesting_ = 0;
  std::string error_;
};

class Evaluator {
 public:
  Evaluator(std::string const& text, ScalarEnv const& env) : text_(text), env_(env) {}

  Result<std::int64_t> run(Expr::Node const& root) {
    std::int64_t value = eval(root);
    if (!error_.empty()) return make_error(ErrorCode::invalid_argument, error_);
    return value;
  }

 private:
  std::int64_t fail(std::string const& what) {
    if (error_.empty()) error_ = what + " in '" + text_ + "'";
    return 0;
  }

  std::int64_t overflow(std::string_view op, std::int64_t a, std::int64_t b) {
    return fail("integer overflow: " + std::to_string(a) + " " + std::string(op) + " " + std::to_string(b));
  }

  std::int64_t lookup(std::string const& name) {
    auto it = env_.find(name);
    if (it != env_.end()) return it->second;
    std::string defined;
    for (auto const& [key, value] : env_) {
      if (!defined.empty()) defined += ", ";
      defined += key;
    }
    return fail("unknown identifier '" + name + "'" +
                (defined.empty() ? std::string("; no names are defined") : "; defined: " + defined));
  }

  std::int64_t eval(Expr::Node const& node) {
    if (!error_.empty()) return 0;
    switch (node.kind) {
      case Kind::literal: return node.value;
      case Kind::identifier: return lookup(node.name);
      case Kind::unary: return unary(node);
      case Kind::binary: return binary(node);
      case Kind::ternary: return eval(*node.args[0]) != 0 ? eval(*node.args[1]) : eval(*node.args[2]);
      case Kind::call: return call(node);
    }
    return fail("corrupt expression node");
  }

  std::int64_t unary(Expr::Node const& node) {
    std::int64_t v = eval(*node.args[0]);
    if (!error_.empty()) return 0;
    if (node.name == "!") return v == 0 ? 1 : 0;
    std::int64_t out = 0;
    if (__builtin_sub_overflow(std::int64_t{0}, v, &out))
      return fail("integer overflow: -(" + std::to_string(v) + ")");
    return out;
  }

  std::int64_t binary(Expr::Node const& node) {
    std::string const& op = node.name;
    std::int64_t a = eval(*node.args[0]);
    if (!error_.empty()) return 0;
    if (op == "&&") return a != 0 && eval(*node.args[1]) != 0 ? 1 : 0;
    if (op == "||") return a != 0 || eval(*node.args[1]) != 0 ? 1 : 0;
    std::int64_t b = eval(*node.args[1]);
    if (!error_.empty()) return 0;
    std::int64_t out = 0;
    if (op == "+") return __builtin_add_overflow(a, b, &out) ? overflow(op, a, b) : out;
    if (op == "-") return __builtin_sub_overflow(a, b, &out) ? overflow(op, a, b) : out;
    if (op == "*") return __builtin_mul_overflow(a, b, &out) ? overflow(op, a, b) : out;
    if (op == "/" || op == "%") {
      if (b == 0)
        return fail(std::string(op == "/" ? "division" : "modulo") + " by zero: " + std::to_string(a) + " " +
                    op + " 0");
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return overflow(op, a, b);
      return op == "/" ? a / b : a % b;
    }
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == ">") return a > b;
    if (op == ">=") return a >= b;
    return fail("unknown operator '" + op + "'");
  }

  std::int64_t call(Expr::Node const& node) {
    std::vector<std::int64_t> v;
    for (auto const& arg : node.args) {
      v.push_back(eval(*arg));
      if (!error_.empty()) return 0;
    }
    std::string const& fn = node.name;
    if (fn == "min") return std::min(v[0], v[1]);
    if (fn == "max") return std::max(v[0], v[1]);
    if (fn == "abs") {
      if (v[0] == std::numeric_limits<std::int64_t>::min())
        return fail("integer overflow: abs(" + std::to_string(v[0]) + ")");
      return v[0] < 0 ? -v[0] : v[0];
    }
    if (fn == "ceil_div") {
      if (v[1] == 0) return fail("division by zero: ceil_div(" + std::to_string(v[0]) + ", 0)");
      if (v[0] == std::numeric_limits<std::int64_t>::min() && v[1] == -1)
        return overflow("ceil_div", v[0], v[1]);
      std::int64_t q = v[0] / v[1];
      bool round_up = v[0] % v[1] != 0 && ((v[0] < 0) == (v[1] < 0));
      return round_up ? q + 1 : q;
    }
    if (fn == "log2") {
      if (v[0] <= 0) return fail("log2 of a non-positive value: log2(" + std::to_string(v[0]) + ")");
      std::int64_t r = 0;
      for (std::int64_t x = v[0]; x > 1; x >>= 1) ++r;
      return r;
    }
    if (fn == "sqrt") {
      if (v[0] < 0) return fail("sqrt of a negative value: sqrt(" + std::to_string(v[0]) + ")");
      auto r = static_cast<std::int64_t>(std::sqrt(static_cast<double>(v[0])));
      // Correct the floating-point estimate to the exact floor.
      while (r > 0 && (r > v[0] / r)) --r;
      while ((r + 1) <= v[0] / (r + 1)) ++r;
      return r;
    }
    if (fn == "pow") return power(v[0], v[1]);
    return fail("unknown function '" + fn + "'");
  }

  std::int64_t power(std::int64_t base, std::int64_t exponent) {
    if (exponent < 0)
      return fail("pow with a negative exponent: pow(" + std::to_string(base) + ", " +
                  std::to_string(exponent) + ")");
    std::int64_t result = 1;
    std::int64_t b = base;
    std::int64_t e = exponent;
    while (e > 0) {
      if ((e & 1) != 0 && __builtin_mul_overflow(result, b, &result)) return overflow("pow", base, exponent);
      e >>= 1;
      // Every squaring still needed contributes to the result, so its overflow is genuine.
      if (e > 0 && __builtin_mul_overflow(b, b, &b)) return overflow("pow", base, exponent);
    }
    return result;
  }

  std::string const& text_;
  ScalarEnv const& env_;
  std::string error_;
};

void collect_identifiers(Expr::Node const& node, std::set<std::string>& out) {
  if (node.kind == Kind::identifier) out.insert(node.name);
  for (auto const& arg : node.args) collect_identifiers(*arg, out);
}

}  // namespace

Expr::Expr() : text_("0"), root_(std::make_shared<Node>()) {}

Expr Expr::constant(std::int64_t value) {
  Expr expr;
  auto node = std::make_shared<Node>();
  node->value = value;
  expr.text_ = std::to_string(value);
  expr.root_ = std::move(node);
  return expr;
}

Result<Expr> Expr::parse(std::string const& text) {
  auto root = Parser(text).parse();
  if (!root.ok()) return std::move(root).error();
  Expr expr;
  expr.text_ = text;
  expr.root_ = std::move(root).value();
  return expr;
}

Result<std::int64_t> Expr::evaluate(ScalarEnv const& env) const {
  if (!root_) return std::int64_t{0};
  return Evaluator(text_, env).run(*root_);
}

std::vector<std::string> Expr::identifiers() const {
  std::set<std::string> names;
  if (root_) collect_identifiers(*root_, names);
  return {names.begin(), names.end()};
}

}  // namespace kopt
