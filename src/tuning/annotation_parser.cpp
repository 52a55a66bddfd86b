// TuningSpace::parse: the kopt:knob, kopt:flag and kopt:constraint comment lines of a candidate.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/tuning.hpp"
#include "tuning/tokens.hpp"

namespace kopt {
namespace {

constexpr std::size_t kMaxKnobValues = 4096;

// Names a knob cannot take: launch annotation fields, expression functions, CUDA built-ins.
constexpr std::array<std::string_view, 16> kReservedNames = {
    "grid", "block", "shared", "kernel",    "min",      "max",      "ceil_div", "abs",
    "log2", "pow",   "sqrt",   "threadIdx", "blockIdx", "blockDim", "gridDim",  "warpSize"};

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// A cursor over the text of one annotation after its directive.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool accept_word(std::string_view word) {
    skip_space();
    if (text_.substr(pos_, word.size()) != word) return false;
    std::size_t const after = pos_ + word.size();
    if (after < text_.size() &&
        (std::isalnum(static_cast<unsigned char>(text_[after])) != 0 || text_[after] == '_'))
      return false;
    pos_ = after;
    return true;
  }
  std::string_view word() {
    skip_space();
    std::size_t const start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) != 0 || text_[pos_] == '_'))
      ++pos_;
    return text_.substr(start, pos_ - start);
  }
  std::optional<std::int64_t> integer() {
    skip_space();
    std::int64_t value = 0;
    char const* begin = text_.data() + pos_;
    char const* end = text_.data() + text_.size();
    auto const [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr == begin) return std::nullopt;
    if (ptr < end && (std::isalnum(static_cast<unsigned char>(*ptr)) != 0 || *ptr == '_' || *ptr == '.'))
      return std::nullopt;
    pos_ += static_cast<std::size_t>(ptr - begin);
    return value;
  }
  // A double-quoted string without escapes.
  std::optional<std::string> quoted() {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != '"') return std::nullopt;
    std::size_t const close = text_.find('"', pos_ + 1);
    if (close == std::string_view::npos) return std::nullopt;
    std::string value(text_.substr(pos_ + 1, close - pos_ - 1));
    pos_ = close + 1;
    return value;
  }
  std::string_view rest() {
    skip_space();
    return text_.substr(pos_);
  }
  std::string_view peek_text() {
    skip_space();
    std::string_view const rest_text = text_.substr(pos_);
    return rest_text.substr(0, std::min<std::size_t>(rest_text.size(), 20));
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

struct Annotation {
  std::string_view directive;  // "knob", "flag", "constraint" or another word after "kopt:"
  std::string_view body;
};

// The directive and text of a `// kopt:<directive> ...` comment line.
std::optional<Annotation> annotation_of(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  if (line.substr(i, 2) != "//") return std::nullopt;
  i += 2;
  while (i < line.size() && is_space(line[i])) ++i;
  constexpr std::string_view kPrefix = "kopt:";
  if (line.substr(i, kPrefix.size()) != kPrefix) return std::nullopt;
  i += kPrefix.size();
  std::size_t const start = i;
  while (i < line.size() && !is_space(line[i])) ++i;
  return Annotation{line.substr(start, i - start), line.substr(i)};
}

class Parser {
 public:
  explicit Parser(std::string origin) : origin_(std::move(origin)) {}

  void line(std::size_t number, Annotation const& annotation) {
    line_ = number;
    if (annotation.directive == "knob") {
      knob(annotation.body, KnobKind::integer);
    } else if (annotation.directive == "flag") {
      knob(annotation.body, KnobKind::flag);
    } else if (annotation.directive == "constraint") {
      constraint(annotation.body);
    } else if (annotation.directive.starts_with("knob") || annotation.directive.starts_with("flag") ||
               annotation.directive.starts_with("constraint")) {
      fail(fmt::format("kopt:{}", annotation.directive), "unknown annotation",
           "kopt:knob, kopt:flag or kopt:constraint");
    }
  }

  std::vector<Knob> knobs;
  std::vector<KnobConstraint> constraints;
  std::vector<std::string> problems;

 private:
  void fail(std::string const& where, std::string const& what, std::string const& expected) {
    problems.push_back(fmt::format("{}:{}: {}: {}; expected {}", origin_, line_, where, what, expected));
  }

  void knob(std::string_view body, KnobKind kind) {
    std::string const directive = kind == KnobKind::integer ? "kopt:knob" : "kopt:flag";
    Cursor cursor(body);
    std::string const name(cursor.word());
    std::string const where = name.empty() ? directive : fmt::format("{} {}", directive, name);
    if (name.empty()) {
      fail(where, fmt::format("no knob name before '{}'", cursor.peek_text()), "NAME = [values]");
      return;
    }
    if (!check_name(where, name)) return;
    if (!cursor.accept('=')) {
      fail(where, fmt::format("'{}' after the name", cursor.peek_text()), "'='");
      return;
    }
    Knob knob;
    knob.name = name;
    knob.kind = kind;
    knob.line = line_;
    if (kind == KnobKind::integer) {
      if (!integer_values(cursor, where, knob.values)) return;
      if (cursor.accept_word("resources")) {
        if (!cursor.accept('=')) {
          fail(where, "'resources' without a value", "resources=increasing, decreasing or none");
          return;
        }
        std::string_view const trend = cursor.word();
        if (trend == "increasing") {
          knob.trend = ResourceTrend::increasing;
        } else if (trend == "decreasing") {
          knob.trend = ResourceTrend::decreasing;
        } else if (trend == "none") {
          knob.trend = ResourceTrend::none;
        } else {
          fail(where, fmt::format("resources='{}'", trend), "increasing, decreasing or none");
          return;
        }
      }
    } else {
      knob.trend = ResourceTrend::none;
      if (!flag_values(cursor, where, knob.flags)) return;
    }
    if (!cursor.at_end()) {
      fail(where, fmt::format("unexpected '{}' after the values", cursor.peek_text()),
           kind == KnobKind::integer ? "nothing, or resources=increasing|decreasing|none" : "nothing");
      return;
    }
    knobs.push_back(std::move(knob));
  }

  bool check_name(std::string const& where, std::string const& name) {
    if (!tuning_detail::is_identifier(name)) {
      fail(where, fmt::format("'{}' is not a name", name), "a C identifier");
      return false;
    }
    if (name.starts_with("__")) {
      fail(where, fmt::format("'{}' starts with '__' (reserved)", name), "a name without a leading '__'");
      return false;
    }
    for (std::string_view const reserved : kReservedNames) {
      if (name == reserved) {
        fail(where,
             fmt::format("'{}' is reserved (launch field, expression function or CUDA built-in)", name),
             "another name");
        return false;
      }
    }
    for (Knob const& other : knobs) {
      if (other.name == name) {
        fail(where, fmt::format("'{}' is already declared on line {}", name, other.line),
             "unique knob names");
        return false;
      }
    }
    return true;
  }

  bool integer_values(Cursor& cursor, std::string const& where, std::vector<std::int64_t>& values) {
    if (cursor.accept_word("range")) return range_values(cursor, where, values);
    if (!cursor.accept('[')) {
      fail(where, fmt::format("'{}'", cursor.peek_text()), "a list [v1, v2, ...] or range(lo, hi[, step])");
      return false;
    }
    std::set<std::int64_t> seen;
    if (cursor.accept(']')) {
      fail(where, "an empty list", "at least one value");
      return false;
    }
    do {
      auto const value = cursor.integer();
      if (!value) {
        fail(where, fmt::format("'{}' in the list", cursor.peek_text()), "a 64-bit integer");
        return false;
      }
      if (!seen.insert(*value).second) {
        fail(where, fmt::format("value {} listed twice", *value), "distinct values");
        return false;
      }
      values.push_back(*value);
    } while (cursor.accept(','));
    if (!cursor.accept(']')) {
      fail(where, fmt::format("'{}' in the list", cursor.peek_text()), "',' or ']'");
      return false;
    }
    if (values.size() > kMaxKnobValues) {
      fail(where, fmt::format("{} values", values.size()), fmt::format("at most {}", kMaxKnobValues));
      return false;
    }
    return true;
  }

  bool range_values(Cursor& cursor, std::string const& where, std::vector<std::int64_t>& values) {
    std::string const expected = "range(lo, hi) or range(lo, hi, step) with integers";
    if (!cursor.accept('(')) {
      fail(where, "'range' without '('", expected);
      return false;
    }
    std::vector<std::int64_t> args;
    do {
      auto const value = cursor.integer();
      if (!value) {
        fail(where, fmt::format("'{}' in range(...)", cursor.peek_text()), expected);
        return false;
      }
      args.push_back(*value);
    } while (cursor.accept(','));
    if (!cursor.accept(')') || args.size() < 2 || args.size() > 3) {
      fail(where, fmt::format("range with {} argument(s)", args.size()), expected);
      return false;
    }
    std::int64_t const lo = args[0];
    std::int64_t const hi = args[1];
    std::int64_t const step = args.size() == 3 ? args[2] : 1;
    if (step < 1) {
      fail(where, fmt::format("range step {}", step), "a step of at least 1");
      return false;
    }
    if (lo > hi) {
      fail(where, fmt::format("range({}, {}) is empty", lo, hi), "lo <= hi (both ends are included)");
      return false;
    }
    // Count in unsigned arithmetic: hi - lo may not fit in int64.
    std::uint64_t const span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    std::uint64_t const count = span / static_cast<std::uint64_t>(step) + 1;
    if (count > kMaxKnobValues) {
      fail(where, fmt::format("range has {} values", count), fmt::format("at most {}", kMaxKnobValues));
      return false;
    }
    for (std::uint64_t i = 0; i < count; ++i) {
      values.push_back(lo + static_cast<std::int64_t>(i) * step);
    }
    return true;
  }

  bool flag_values(Cursor& cursor, std::string const& where, std::vector<std::string>& flags) {
    std::string const expected = R"(a list of quoted flags such as ["", "--use_fast_math"])";
    if (!cursor.accept('[')) {
      fail(where, fmt::format("'{}'", cursor.peek_text()), expected);
      return false;
    }
    std::set<std::string> seen;
    if (cursor.accept(']')) {
      fail(where, "an empty list", "at least one value");
      return false;
    }
    do {
      auto value = cursor.quoted();
      if (!value) {
        fail(where, fmt::format("'{}' in the list", cursor.peek_text()), expected);
        return false;
      }
      if (!flag_text_ok(where, *value)) return false;
      if (!seen.insert(*value).second) {
        fail(where, fmt::format("\"{}\" listed twice", *value), "distinct values");
        return false;
      }
      flags.push_back(std::move(*value));
    } while (cursor.accept(','));
    if (!cursor.accept(']')) {
      fail(where, fmt::format("'{}' in the list", cursor.peek_text()), "',' or ']'");
      return false;
    }
    return true;
  }

  bool flag_text_ok(std::string const& where, std::string const& text) {
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && is_space(text[i])) ++i;
      if (i >= text.size()) break;
      std::size_t const start = i;
      while (i < text.size() && !is_space(text[i])) ++i;
      std::string_view const argument = std::string_view(text).substr(start, i - start);
      if (!argument.starts_with("-")) {
        fail(where, fmt::format("\"{}\" holds '{}', which is not an option", text, argument),
             "compiler options starting with '-' (or \"\" for none)");
        return false;
      }
      if (argument.find_first_of("\\'`$;") != std::string_view::npos) {
        fail(where, fmt::format("'{}' holds a quote, backslash, '$' or ';'", argument), "a plain option");
        return false;
      }
    }
    return true;
  }

  void constraint(std::string_view body) {
    Cursor cursor(body);
    std::string text(cursor.rest());
    while (!text.empty() && is_space(text.back())) text.pop_back();
    if (text.empty()) {
      fail("kopt:constraint", "no expression", "an integer expression over knobs and size scalars");
      return;
    }
    auto expr = Expr::parse(text);
    if (!expr) {
      // The expression parser's message already says what it expected.
      problems.push_back(
          fmt::format("{}:{}: kopt:constraint: '{}': {}", origin_, line_, text, expr.error().message));
      return;
    }
    constraints.push_back(KnobConstraint{std::move(*expr), line_});
  }

  std::string origin_;
  std::size_t line_ = 0;
};

}  // namespace

Result<TuningSpace> TuningSpace::parse(std::string const& source, std::string const& origin) {
  Parser parser(origin);
  std::string_view text = source;
  std::size_t number = 0;
  while (!text.empty()) {
    ++number;
    std::size_t const end = text.find('\n');
    std::string_view const line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (auto const annotation = annotation_of(line)) parser.line(number, *annotation);
  }
  if (!parser.problems.empty()) {
    std::string message;
    for (auto const& problem : parser.problems) {
      if (!message.empty()) message += '\n';
      message += problem;
    }
    return make_error(ErrorCode::invalid_spec, std::move(message));
  }
  TuningSpace space;
  space.knobs_ = std::move(parser.knobs);
  space.constraints_ = std::move(parser.constraints);
  space.origin_ = origin;
  // Constraints may use knobs declared after them; names that are not knobs must be size scalars,
  // which check_rules() verifies once the task is known.
  return space;
}

}  // namespace kopt
