#include "kopt/expr.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace kopt {
namespace expr_test {

std::int64_t eval(std::string const& text, ScalarEnv const& env = {}) {
  auto expr = Expr::parse(text);
  EXPECT_TRUE(expr.ok()) << text << ": " << (expr.ok() ? "" : expr.error().message);
  if (!expr.ok()) return -999999;
  auto value = expr->evaluate(env);
  EXPECT_TRUE(value.ok()) << text << ": " << (value.ok() ? "" : value.error().message);
  return value.ok() ? *value : -999999;
}

std::string parse_error(std::string const& text) {
  auto expr = Expr::parse(text);
  EXPECT_FALSE(expr.ok()) << "parsed unexpectedly: " << text;
  return expr.ok() ? std::string() : expr.error().message;
}

std::string eval_error(std::string const& text, ScalarEnv const& env = {}) {
  auto expr = Expr::parse(text);
  EXPECT_TRUE(expr.ok()) << text;
  if (!expr.ok()) return {};
  auto value = expr->evaluate(env);
  EXPECT_FALSE(value.ok()) << text << " evaluated to " << (value.ok() ? *value : 0);
  return value.ok() ? std::string() : value.error().message;
}

TEST(Expr, DefaultIsConstantZero) {
  Expr expr;
  EXPECT_EQ(expr.text(), "0");
  EXPECT_EQ(*expr.evaluate({}), 0);
  EXPECT_TRUE(expr.identifiers().empty());
  Expr seven = Expr::constant(7);
  EXPECT_EQ(seven.text(), "7");
  EXPECT_EQ(*seven.evaluate({}), 7);
}

TEST(Expr, LiteralsAndIdentifiers) {
  EXPECT_EQ(eval("42"), 42);
  EXPECT_EQ(eval("  9223372036854775807 "), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(eval("N*C", {{"N", 64}, {"C", 1000}}), 64000);
  EXPECT_EQ(eval("row_len_2 + _x", {{"row_len_2", 3}, {"_x", 4}}), 7);
}

TEST(Expr, CPrecedenceAndAssociativity) {
  EXPECT_EQ(eval("2+3*4"), 14);
  EXPECT_EQ(eval("(2+3)*4"), 20);
  EXPECT_EQ(eval("10-4-3"), 3);
  EXPECT_EQ(eval("100/10/5"), 2);
  EXPECT_EQ(eval("17%5*2"), 4);
  EXPECT_EQ(eval("-3*-2"), 6);
  EXPECT_EQ(eval("- -5"), 5);
  EXPECT_EQ(eval("!0 + !7"), 1);
  EXPECT_EQ(eval("1 + 2 < 4"), 1);
  EXPECT_EQ(eval("3 < 2 == 0"), 1);         // relational binds tighter than equality
  EXPECT_EQ(eval("1 || 0 && 0"), 1);        // && binds tighter than ||
  EXPECT_EQ(eval("0 ? 1 : 2 ? 3 : 4"), 3);  // right-associative ternary
  EXPECT_EQ(eval("1 ? 0 ? 5 : 6 : 7"), 6);
  EXPECT_EQ(eval("N > 1024 ? 512 : 256", {{"N", 2000}}), 512);
  EXPECT_EQ(eval("4 <= 4 && 5 >= 6 || 2 != 2"), 0);
  EXPECT_EQ(eval("-7 / 2"), -3);  // C truncation
  EXPECT_EQ(eval("-7 % 2"), -1);
}

TEST(Expr, Functions) {
  EXPECT_EQ(eval("min(3, 9)"), 3);
  EXPECT_EQ(eval("max(3, 9)"), 9);
  EXPECT_EQ(eval("ceil_div(1000, 256)"), 4);
  EXPECT_EQ(eval("ceil_div(1024, 256)"), 4);
  EXPECT_EQ(eval("ceil_div(-7, 2)"), -3);
  EXPECT_EQ(eval("ceil_div(7, -2)"), -3);
  EXPECT_EQ(eval("ceil_div(-7, -2)"), 4);
  EXPECT_EQ(eval("abs(-12)"), 12);
  EXPECT_EQ(eval("log2(1)"), 0);
  EXPECT_EQ(eval("log2(1023)"), 9);
  EXPECT_EQ(eval("log2(1024)"), 10);
  EXPECT_EQ(eval("pow(2, 10)"), 1024);
  EXPECT_EQ(eval("pow(-3, 3)"), -27);
  EXPECT_EQ(eval("pow(7, 0)"), 1);
  EXPECT_EQ(eval("pow(1, 4000000000000)"), 1);
  EXPECT_EQ(eval("sqrt(0)"), 0);
  EXPECT_EQ(eval("sqrt(15)"), 3);
  EXPECT_EQ(eval("sqrt(16)"), 4);
  EXPECT_EQ(eval("sqrt(9223372036854775807)"), 3037000499);
  EXPECT_EQ(eval("max(min(N, 4), ceil_div(N, 3))", {{"N", 30}}), 10);
}

TEST(Expr, OverflowIsDetected) {
  EXPECT_NE(eval_error("9223372036854775807 + 1").find("overflow"), std::string::npos);
  EXPECT_NE(eval_error("N*C", {{"N", 4000000000}, {"C", 4000000000}}).find("overflow"), std::string::npos);
  EXPECT_NE(eval_error("0 - 9223372036854775807 - 2").find("overflow"), std::string::npos);
  EXPECT_NE(eval_error("-N", {{"N", std::numeric_limits<std::int64_t>::min()}}).find("overflow"),
            std::string::npos);
  EXPECT_NE(eval_error("N / -1", {{"N", std::numeric_limits<std::int64_t>::min()}}).find("overflow"),
            std::string::npos);
  EXPECT_NE(eval_error("abs(N)", {{"N", std::numeric_limits<std::int64_t>::min()}}).find("overflow"),
            std::string::npos);
  EXPECT_NE(eval_error("pow(2, 63)").find("overflow"), std::string::npos);
  EXPECT_EQ(eval("pow(2, 62)"), std::int64_t{1} << 62);
  EXPECT_EQ(eval("pow(-2, 63)"), std::numeric_limits<std::int64_t>::min());
  auto message = parse_error("99999999999999999999");
  EXPECT_NE(message.find("too large"), std::string::npos) << message;
}

TEST(Expr, DivisionAndDomainErrors) {
  auto message = eval_error("N / (C - 4)", {{"N", 8}, {"C", 4}});
  EXPECT_NE(message.find("division by zero"), std::string::npos) << message;
  EXPECT_NE(message.find("N / (C - 4)"), std::string::npos) << message;
  EXPECT_NE(eval_error("5 % 0").find("modulo by zero"), std::string::npos);
  EXPECT_NE(eval_error("ceil_div(5, 0)").find("division by zero"), std::string::npos);
  EXPECT_NE(eval_error("log2(0)").find("log2"), std::string::npos);
  EXPECT_NE(eval_error("sqrt(-1)").find("sqrt"), std::string::npos);
  EXPECT_NE(eval_error("pow(2, -1)").find("negative exponent"), std::string::npos);
}

TEST(Expr, ShortCircuitSkipsErrors) {
  EXPECT_EQ(eval("0 && 1/0"), 0);
  EXPECT_EQ(eval("1 || 1/0"), 1);
  EXPECT_EQ(eval("1 ? 5 : 1/0"), 5);
  EXPECT_EQ(eval("C == 0 ? 0 : N / C", {{"N", 10}, {"C", 0}}), 0);
}

TEST(Expr, UnknownIdentifierNamesItAndListsDefined) {
  auto message = eval_error("N*D", {{"N", 1}, {"C", 2}});
  EXPECT_NE(message.find("'D'"), std::string::npos) << message;
  EXPECT_NE(message.find("C, N"), std::string::npos) << message;
  auto empty = eval_error("X");
  EXPECT_NE(empty.find("'X'"), std::string::npos) << empty;
  EXPECT_NE(empty.find("no names"), std::string::npos) << empty;
}

TEST(Expr, ParseErrorsNameThePosition) {
  auto message = parse_error("ceil_div(N,");
  EXPECT_NE(message.find("column 12"), std::string::npos) << message;
  EXPECT_NE(message.find("'ceil_div(N,'"), std::string::npos) << message;
  message = parse_error("(N + 1");
  EXPECT_NE(message.find("expected ')'"), std::string::npos) << message;
  EXPECT_NE(message.find("column 7"), std::string::npos) << message;
  message = parse_error("N + * C");
  EXPECT_NE(message.find("column 5"), std::string::npos) << message;
  message = parse_error("N C");
  EXPECT_NE(message.find("column 3"), std::string::npos) << message;
  message = parse_error("floor(N)");
  EXPECT_NE(message.find("unknown function 'floor'"), std::string::npos) << message;
  EXPECT_NE(message.find("ceil_div"), std::string::npos) << message;
  message = parse_error("min(1)");
  EXPECT_NE(message.find("min() takes 2 arguments"), std::string::npos) << message;
  message = parse_error("abs(1, 2)");
  EXPECT_NE(message.find("abs() takes 1 argument"), std::string::npos) << message;
  message = parse_error("1.5 * N");
  EXPECT_NE(message.find("integer literal"), std::string::npos) << message;
  message = parse_error("N ? 1");
  EXPECT_NE(message.find("':'"), std::string::npos) << message;
  message = parse_error("");
  EXPECT_NE(message.find("missing operand"), std::string::npos) << message;
  message = parse_error("N = 3");
  EXPECT_NE(message.find("'='"), std::string::npos) << message;
}

TEST(Expr, DeepNestingIsRejectedNotCrashing) {
  std::string deep(100000, '(');
  EXPECT_NE(parse_error(deep + "1").find("nested too deeply"), std::string::npos);
  std::string negations(100000, '-');
  EXPECT_NE(parse_error(negations + "1").find("nested too deeply"), std::string::npos);
  std::string chain = "1";
  for (int i = 0; i < 5000; ++i) chain += "+1";
  EXPECT_NE(parse_error(chain).find("nested too deeply"), std::string::npos);
  std::string ok = "1";
  for (int i = 0; i < 150; ++i) ok += "+1";
  EXPECT_EQ(eval(ok), 151);
}

TEST(Expr, IdentifiersAreSortedAndUnique) {
  auto expr = Expr::parse("ceil_div(N, BLOCK) * N + max(C, min(N, K)) + (K ? C : 0)");
  ASSERT_TRUE(expr.ok());
  EXPECT_EQ(expr->identifiers(), (std::vector<std::string>{"BLOCK", "C", "K", "N"}));
  EXPECT_EQ(expr->text(), "ceil_div(N, BLOCK) * N + max(C, min(N, K)) + (K ? C : 0)");
}

TEST(Expr, FuzzRandomStringsNeverCrash) {
  std::mt19937_64 rng(12345);
  std::string const alphabet = "0123456789NCKxyz_+-*/%()?:<>=!&|, \tmincaxeil_dvbsoqrtpw2";
  std::vector<std::string> const tokens{"min(", "max(",  "ceil_div(", "abs(", "log2(",
                                        "pow(", "sqrt(", "N",         "C",    "0",
                                        "1",    "-",     "*",         "/",    "%",
                                        "?",    ":",     "(",         ")",    ",",
                                        "&&",   "||",    "==",        "<=",   "9223372036854775807"};
  ScalarEnv env{{"N", 1000}, {"C", 7}, {"K", 0}};
  int parsed = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string text;
    auto length = rng() % 24;
    for (std::uint64_t i = 0; i < length; ++i) {
      if (rng() % 2 == 0) {
        text += alphabet[rng() % alphabet.size()];
      } else {
        text += tokens[rng() % tokens.size()];
      }
    }
    auto expr = Expr::parse(text);
    if (!expr.ok()) {
      EXPECT_FALSE(expr.error().message.empty()) << text;
      continue;
    }
    ++parsed;
    auto value = expr->evaluate(env);
    if (!value.ok()) {
      EXPECT_FALSE(value.error().message.empty()) << text;
    }
  }
  EXPECT_GT(parsed, 100);  // the generator does produce valid expressions, so evaluation is exercised
}

}  // namespace expr_test
}  // namespace kopt
