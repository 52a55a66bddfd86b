#include "kopt/detail/toml_precheck.hpp"

#include <cstdio>
#include <string>

namespace kopt::detail {
namespace {

bool is_toml_key_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '"' || c == '\'';
}

class TomlScanner {
 public:
  explicit TomlScanner(std::string_view text) : text_(text) {}

  std::optional<TomlProblem> run() {
    if (auto control = find_control_character()) return control;
    bool line_start = true;  // only whitespace seen since the last newline
    while (i_ < text_.size()) {
      char c = text_[i_];
      if (c == '\n') {
        line_start = true;
        advance();
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        advance();
        continue;
      }
      if (c == '#') {
        while (i_ < text_.size() && text_[i_] != '\n') advance();
        continue;
      }
      if (c == '"' || c == '\'') {
        if (auto problem = skip_string(c)) return problem;
        line_start = false;
        continue;
      }
      if (static_cast<unsigned char>(c) >= 0x80) {
        return TomlProblem{
            line_, column_, "invalid TOML: a non-ASCII character outside a string or comment",
            "bare keys of A-Z a-z 0-9 _ -; other characters inside a quoted string or after #"};
      }
      if (c == '[' && line_start && depth_ == 0) {
        if (auto problem = check_header()) return problem;
      }
      if (c == '[' || c == '{') ++depth_;
      if ((c == ']' || c == '}') && depth_ > 0) --depth_;
      line_start = false;
      advance();
    }
    return std::nullopt;
  }

 private:
  std::optional<TomlProblem> find_control_character() {
    std::uint32_t line = 1;
    std::uint32_t column = 1;
    for (std::size_t k = 0; k < text_.size(); ++k) {
      auto c = static_cast<unsigned char>(text_[k]);
      if (c == '\n') {
        ++line;
        column = 1;
        continue;
      }
      bool crlf = c == '\r' && k + 1 < text_.size() && text_[k + 1] == '\n';
      if ((c < 0x20 && c != '\t' && !crlf) || c == 0x7F) {
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
        return TomlProblem{line, column, std::string("invalid TOML: control character ") + code,
                           "valid TOML (only tab and newline among control characters)"};
      }
      if ((c & 0xC0) != 0x80) ++column;
    }
    return std::nullopt;
  }

  void advance() {
    if (i_ >= text_.size()) return;
    if (text_[i_] == '\n') {
      ++line_;
      column_ = 1;
    } else if ((static_cast<unsigned char>(text_[i_]) & 0xC0) != 0x80) {
      ++column_;
    }
    ++i_;
  }

  // Skips a basic or literal string, single- or multi-line, starting at the opening quote.
  std::optional<TomlProblem> skip_string(char quote) {
    bool multi = text_.substr(i_, 3) == std::string(3, quote);
    for (int k = 0; k < (multi ? 3 : 1); ++k) advance();
    while (i_ < text_.size()) {
      char c = text_[i_];
      if (c == '\\' && quote == '"') {
        advance();
        if (multi && line_ending_backslash()) {
          // toml++ skips the whitespace after it and asks its whitespace table about the next character.
          while (i_ < text_.size() &&
                 (text_[i_] == ' ' || text_[i_] == '\t' || text_[i_] == '\r' || text_[i_] == '\n')) {
            advance();
          }
          if (i_ < text_.size() && static_cast<unsigned char>(text_[i_]) >= 0x80) {
            return TomlProblem{line_, column_,
                               "a non-ASCII character right after a line-ending backslash, which the TOML "
                               "library kopt uses cannot read",
                               "the character on the backslash's line, or written as \\uXXXX"};
          }
          continue;
        }
        advance();
        continue;
      }
      if (c == '\n' && !multi) return std::nullopt;  // unterminated: toml++ reports it
      if (c == quote && (!multi || text_.substr(i_, 3) == std::string(3, quote))) {
        for (int k = 0; k < (multi ? 3 : 1); ++k) advance();
        // A multi-line string may end with up to two extra quotes (""""" is valid).
        while (multi && i_ < text_.size() && text_[i_] == quote) advance();
        return std::nullopt;
      }
      advance();
    }
    return std::nullopt;
  }

  // At the character after a backslash: whether only spaces and tabs stand between it and the line's end.
  bool line_ending_backslash() const {
    std::size_t k = i_;
    while (k < text_.size() && (text_[k] == ' ' || text_[k] == '\t')) ++k;
    return k < text_.size() && (text_[k] == '\n' || text_.substr(k, 2) == "\r\n");
  }

  std::optional<TomlProblem> check_header() const {
    std::size_t k = i_ + 1;
    if (k < text_.size() && text_[k] == '[') ++k;
    while (k < text_.size() && (text_[k] == ' ' || text_[k] == '\t')) ++k;
    if (k < text_.size() && is_toml_key_start(text_[k])) return std::nullopt;
    return TomlProblem{line_, column_, "invalid TOML: table header without a name",
                       "[name] or [[name]] with a bare or quoted key"};
  }

  std::string_view text_;
  std::size_t i_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
  int depth_ = 0;
};

}  // namespace

std::optional<TomlProblem> precheck_toml(std::string_view text) {
  return TomlScanner(text).run();
}

}  // namespace kopt::detail
