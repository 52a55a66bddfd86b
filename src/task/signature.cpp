// Parsing of the entry launcher's C signature: `extern "C" void f(float* out, const float* in, int N)`.
#include <algorithm>
#include <set>
#include <string_view>

#include "kopt/task.hpp"
#include "kopt/text.hpp"

namespace kopt {
namespace {

constexpr std::string_view kTypeList =
    "float, double, __half, __nv_bfloat16, int8_t, uint8_t, int16_t, int, unsigned int, int64_t, uint64_t, "
    "size_t, bool, or cudaStream_t; pointers may also point to float2/float3/float4, double2, int2/int4, "
    "__half2, "
    "__nv_bfloat162, cuComplex, cuDoubleComplex or cufftComplex";

struct Token {
  enum class Kind { word, symbol, string, default_argument };
  Kind kind = Kind::word;
  std::string text;
};

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

Error signature_error(std::string message) {
  return make_error(ErrorCode::invalid_spec, std::move(message));
}

Result<std::vector<Token>> tokenize(std::string const& text) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (text.compare(i, 15, "__attribute__((") == 0) {
      // A GNU attribute (`__attribute__((visibility("default")))`): skipped with its parentheses.
      int depth = 0;
      for (i += 13; i < text.size(); ++i) {
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        if (depth == 0) break;
      }
      ++i;
    } else if (is_word_char(c)) {
      std::size_t start = i;
      // Words may carry a namespace qualifier (std::int64_t).
      while (i < text.size() &&
             (is_word_char(text[i]) || (text[i] == ':' && i + 1 < text.size() && text[i + 1] == ':')))
        i += text[i] == ':' ? 2 : 1;
      tokens.push_back({Token::Kind::word, text.substr(start, i - start)});
    } else if (c == '"') {
      std::size_t end = text.find('"', i + 1);
      if (end == std::string::npos)
        return signature_error("unterminated string at column " + std::to_string(i + 1));
      tokens.push_back({Token::Kind::string, text.substr(i + 1, end - i - 1)});
      i = end + 1;
    } else if (c == '{') {
      break;  // a definition follows the declaration: ignore the body
    } else if (c == '=') {
      // A default argument (`float alpha = 1.0f`) does not change what the launcher takes; it is kept as
      // written (kopt init offers it as the scalar's value), up to the parameter's end.
      int depth = 0;
      std::size_t const start = ++i;
      while (i < text.size() && !(depth == 0 && (text[i] == ',' || text[i] == ')'))) {
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        ++i;
      }
      tokens.push_back({Token::Kind::default_argument, std::string(trim(text.substr(start, i - start)))});
    } else if (std::string_view("*&(),;[]").find(c) != std::string_view::npos) {
      tokens.push_back({Token::Kind::symbol, std::string(1, c)});
      ++i;
    } else {
      return signature_error("unexpected character '" + std::string(1, c) + "' at column " +
                             std::to_string(i + 1));
    }
  }
  return tokens;
}

bool is_symbol(Token const& t, std::string_view s) {
  return t.kind == Token::Kind::symbol && t.text == s;
}
bool is_word(Token const& t, std::string_view s) {
  return t.kind == Token::Kind::word && t.text == s;
}

bool is_restrict(std::string_view w) {
  return w == "__restrict__" || w == "__restrict" || w == "restrict";
}
bool is_cv(std::string_view w) {
  return w == "const" || w == "volatile";
}

// Words that can only be part of a type, never a parameter name.
bool is_type_keyword(std::string_view w) {
  static std::set<std::string_view> const kKeywords{"void",  "bool",     "char",   "short",  "int",
                                                    "long",  "float",    "double", "signed", "unsigned",
                                                    "const", "volatile", "struct", "auto"};
  return kKeywords.contains(w) || is_restrict(w);
}

std::string strip_std(std::string const& word) {
  return word.rfind("std::", 0) == 0 ? word.substr(5) : word;
}

std::string join(std::vector<std::string> const& words) {
  std::string out;
  for (auto const& w : words) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

Result<Param> parse_param(std::vector<Token> tokens, std::size_t index) {
  std::string label = "parameter " + std::to_string(index + 1);
  std::string default_argument;
  if (!tokens.empty() && tokens.back().kind == Token::Kind::default_argument) {
    default_argument = tokens.back().text;
    tokens.pop_back();
  }
  for (auto const& t : tokens) {
    if (is_symbol(t, "&")) return signature_error(label + " is a reference; expected a pointer or a value");
    if (is_symbol(t, "[") || is_symbol(t, "]"))
      return signature_error(label + " is an array; expected a pointer (T* name)");
    if (is_symbol(t, "(") || is_symbol(t, ")"))
      return signature_error(label + " is a function pointer or malformed; expected a pointer or a value");
    if (t.kind == Token::Kind::string)
      return signature_error(label + " contains a string literal; expected a type and a name");
    if (t.kind == Token::Kind::default_argument)
      return signature_error(label + " has '=' before its name; expected type name = value");
  }
  auto stars = static_cast<std::size_t>(
      std::count_if(tokens.begin(), tokens.end(), [](Token const& t) { return is_symbol(t, "*"); }));
  if (stars > 1)
    return signature_error(label + " is a pointer to a pointer; expected a single pointer (T* name)");

  Param param;
  param.is_pointer = stars == 1;
  auto star = std::find_if(tokens.begin(), tokens.end(), [](Token const& t) { return is_symbol(t, "*"); });
  std::vector<std::string> type_words;  // without cv and restrict
  std::vector<std::string> as_written;  // with cv, without restrict
  std::vector<std::string> names;
  for (auto it = tokens.begin(); it != star; ++it) {
    if (it->kind != Token::Kind::word) return signature_error(label + ": unexpected '" + it->text + "'");
    if (is_restrict(it->text)) continue;
    as_written.push_back(it->text);
    if (is_cv(it->text)) {
      if (it->text == "const") param.is_const = param.is_pointer;
      continue;
    }
    type_words.push_back(strip_std(it->text));
  }
  if (param.is_pointer) {
    for (auto it = star + 1; it != tokens.end(); ++it) {
      if (it->kind != Token::Kind::word) return signature_error(label + ": unexpected '" + it->text + "'");
      if (is_restrict(it->text) || is_cv(it->text)) continue;  // qualifiers of the pointer itself
      names.push_back(it->text);
    }
  } else if (!type_words.empty() && !is_type_keyword(type_words.back())) {
    // The last word names the parameter unless it is itself a type ("int" alone).
    bool whole_is_type = type_words.size() == 1 && dtype_from_c_type(type_words.back()).has_value();
    if (!whole_is_type) {
      names.push_back(type_words.back());
      type_words.pop_back();
      as_written.pop_back();
    }
  }
  if (names.empty()) return signature_error(label + " has no name; expected a type followed by a name");
  if (names.size() > 1)
    return signature_error(label + " has extra words '" + join(names) +
                           "'; expected a single name after '*'");
  param.name = names.front();
  if (is_type_keyword(param.name) || dtype_from_c_type(param.name).has_value())
    return signature_error(label + " has no name; expected a type followed by a name");
  std::string type = join(type_words);
  if (type.empty())
    return signature_error(label + " '" + param.name + "' has no type; expected one of " +
                           std::string(kTypeList));
  if (!param.is_pointer && (type == "cudaStream_t" || type == "CUstream")) {
    // The stream the caller launches on: kopt passes the one it verifies and times on.
    param.is_stream = true;
    param.dtype = DType::u64;
    param.c_type = join(as_written);
    param.default_argument = std::move(default_argument);
    return param;
  }
  auto dtype = dtype_from_c_type(type);
  if (auto const vector = dtype ? std::nullopt : vector_element_from_c_type(type)) {
    if (!param.is_pointer && vector->lanes > 1) {
      return signature_error(label + " '" + param.name + "' is a " + type +
                             " passed by value; expected a pointer to it (" + type + "* " + param.name +
                             ") or a scalar");
    }
    dtype = vector->dtype;
    param.lanes = vector->lanes;
    param.type_header = std::string(vector->header);
  }
  if (!dtype) {
    return signature_error(label + " '" + param.name + "' has unknown type '" + type +
                           (param.is_pointer ? "*" : "") + "'; expected one of " + std::string(kTypeList) +
                           (param.is_pointer ? " (as T*)" : ""));
  }
  param.dtype = *dtype;
  param.c_type = join(as_written) + (param.is_pointer ? "*" : "");
  param.default_argument = std::move(default_argument);
  return param;
}

}  // namespace

Result<Signature> parse_signature(std::string const& text) {
  auto tokenized = tokenize(text);
  if (!tokenized.ok()) return std::move(tokenized).error();
  auto const& tokens = tokenized.value();
  std::size_t i = 0;
  if (i < tokens.size() && is_word(tokens[i], "extern")) {
    ++i;
    if (i >= tokens.size() || tokens[i].kind != Token::Kind::string || tokens[i].text != "C")
      return signature_error("'extern' must be followed by \"C\"; expected extern \"C\" void name(...)");
    ++i;
  }
  while (i < tokens.size() && (is_word(tokens[i], "__host__") || is_word(tokens[i], "inline"))) ++i;
  if (i < tokens.size() && (is_word(tokens[i], "__global__") || is_word(tokens[i], "__device__")))
    return signature_error("the entry is a " + tokens[i].text +
                           " function; expected a host launcher (extern \"C\" void ...)");

  auto open = std::find_if(tokens.begin() + static_cast<std::ptrdiff_t>(i), tokens.end(),
                           [](Token const& t) { return is_symbol(t, "("); });
  if (open == tokens.end()) return signature_error("no parameter list; expected extern \"C\" void name(...)");
  auto first = tokens.begin() + static_cast<std::ptrdiff_t>(i);
  if (open == first || open[-1].kind != Token::Kind::word || is_type_keyword(open[-1].text))
    return signature_error("missing function name; expected extern \"C\" void name(...)");
  Signature sig;
  sig.function = open[-1].text;
  std::vector<std::string> return_type;
  for (auto it = first; it != open - 1; ++it) return_type.push_back(it->text);
  if (return_type.empty()) return signature_error("missing return type; expected void");
  if (return_type == std::vector<std::string>{"cudaError_t"} ||
      return_type == std::vector<std::string>{"cudaError"}) {
    sig.returns_error = true;  // the launcher's status: kopt treats an error returned as a launch failure
  } else if (return_type != std::vector<std::string>{"void"}) {
    return signature_error("return type is '" + join(return_type) + "'; expected void or cudaError_t");
  }

  // Parameters up to the matching ')'.
  std::vector<std::vector<Token>> params(1);
  auto it = open + 1;
  for (; it != tokens.end() && !is_symbol(*it, ")"); ++it) {
    if (is_symbol(*it, ",")) {
      params.emplace_back();
    } else {
      params.back().push_back(*it);
    }
  }
  if (it == tokens.end()) return signature_error("unclosed parameter list; expected ')'");
  for (++it; it != tokens.end(); ++it) {
    if (!is_symbol(*it, ";"))
      return signature_error("unexpected '" + it->text + "' after the parameter list; expected ';' or '{'");
  }
  bool no_params =
      params.size() == 1 && (params[0].empty() || (params[0].size() == 1 && is_word(params[0][0], "void")));
  if (no_params) return sig;
  std::set<std::string> seen;
  for (std::size_t p = 0; p < params.size(); ++p) {
    if (params[p].empty())
      return signature_error("parameter " + std::to_string(p + 1) + " is empty; expected a type and a name");
    auto param = parse_param(params[p], p);
    if (!param.ok()) return std::move(param).error();
    if (!seen.insert(param->name).second)
      return signature_error("parameter name '" + param->name + "' is used twice; expected unique names");
    sig.params.push_back(std::move(param).value());
  }
  return sig;
}

}  // namespace kopt
