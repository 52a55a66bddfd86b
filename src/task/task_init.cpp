// `kopt init`: a task skeleton (task.toml with TODOs + reference.cu) from a launcher source.
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "kopt/task.hpp"
#include "kopt/text.hpp"
#include "task/toml_text.hpp"

namespace kopt {
namespace {

using task_detail::toml_quote;

// Replaces comments by spaces (newlines kept, so positions and line numbers survive); string and
// character literals are left alone so that `extern "C"` is still found.
std::string strip_comments(std::string const& text) {
  std::string out = text;
  std::size_t i = 0;
  while (i < out.size()) {
    char c = out[i];
    if (c == '"' || c == '\'') {
      for (++i; i < out.size() && out[i] != c && out[i] != '\n'; ++i) {
        if (out[i] == '\\') ++i;
      }
      ++i;
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      for (; i < out.size() && out[i] != '\n'; ++i) out[i] = ' ';
    } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      std::size_t end = out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : end + 2;
      for (; i < end; ++i) {
        if (out[i] != '\n') out[i] = ' ';
      }
    } else {
      ++i;
    }
  }
  return out;
}

std::size_t line_of(std::string const& text, std::size_t pos) {
  return 1 + static_cast<std::size_t>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

// Skips a function body `{...}` or a `;` after a declaration ending at `pos`; returns the position after it.
std::size_t skip_body(std::string const& text, std::size_t pos) {
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])) != 0) ++pos;
  if (pos < text.size() && text[pos] == ';') return pos + 1;
  if (pos >= text.size() || text[pos] != '{') return pos;
  int depth = 0;
  for (; pos < text.size(); ++pos) {
    if (text[pos] == '{') ++depth;
    if (text[pos] == '}' && --depth == 0) return pos + 1;
  }
  return pos;
}

bool is_device_function(std::string const& declaration) {
  return declaration.find("__global__") != std::string::npos ||
         declaration.find("__device__") != std::string::npos;
}

// The ')' that closes the parameter list of a declaration starting at `pos` (npos when none): parentheses
// are matched, so default arguments `(2 * n)` and a leading `__attribute__((...))` do not end it early.
std::size_t parameter_list_end(std::string const& code, std::size_t pos) {
  int depth = 0;
  std::size_t group_start = pos;
  for (std::size_t i = pos; i < code.size(); ++i) {
    if (code[i] == '(' && depth++ == 0) group_start = i;
    if (code[i] != ')' || --depth != 0) continue;
    std::string_view const before = trim(std::string_view(code).substr(pos, group_start - pos));
    std::string_view constexpr kAttribute = "__attribute__";
    bool const is_attribute =
        before.size() >= kAttribute.size() && before.substr(before.size() - kAttribute.size()) == kAttribute;
    if (!is_attribute) return i;
  }
  return std::string::npos;
}

struct Found {
  Signature signature;
  std::size_t line = 0;
};

// The first extern "C" host function, either `extern "C" void f(...)` or inside `extern "C" { ... }`.
Result<Found> find_launcher(std::string const& source, std::string const& file) {
  std::string const code = strip_comments(source);
  static RE2 const kExtern(R"(extern\s*"C"\s*(\{)?)", RE2::Latin1);
  re2::StringPiece rest(code);  // the code after the last match
  re2::StringPiece brace;       // no data() when the match has no '{'
  while (RE2::FindAndConsume(&rest, kExtern, &brace)) {
    auto pos = static_cast<std::size_t>(rest.data() - code.data());  // the end of the match
    bool block = brace.data() != nullptr;
    while (pos < code.size()) {
      while (pos < code.size() && std::isspace(static_cast<unsigned char>(code[pos])) != 0) ++pos;
      if (pos >= code.size() || code[pos] == '}') break;  // the block ended without a launcher
      std::size_t close = parameter_list_end(code, pos);
      if (close == std::string::npos) break;
      std::string declaration = code.substr(pos, close + 1 - pos);
      if (!is_device_function(declaration)) {
        auto signature = parse_signature("extern \"C\" " + declaration);
        if (!signature.ok()) {
          return make_error(ErrorCode::invalid_argument,
                            file + ":" + std::to_string(line_of(code, pos)) +
                                ": the first extern \"C\" launcher: " + signature.error().message);
        }
        return Found{std::move(signature).value(), line_of(code, pos)};
      }
      if (!block) break;
      pos = skip_body(code, close + 1);
    }
  }
  return make_error(ErrorCode::invalid_argument,
                    file +
                        ": no extern \"C\" host function found; expected a launcher such as "
                        "extern \"C\" void softmax(float* out, const float* in, int N, int C)");
}

// A scalar's default argument as a TOML number ("1.0f" -> 1.0, "-1e-5f" -> -1e-5, "256u" -> 256), when it
// is a plain literal of the scalar's kind; an expression or a name is left to the user.
std::optional<std::string> default_value(Param const& p) {
  std::string text(trim(p.default_argument));
  while (!text.empty() && std::string_view("fFlLuU").find(text.back()) != std::string_view::npos &&
         !(text.size() >= 2 && (text[0] == '0') && (text[1] == 'x' || text[1] == 'X'))) {
    text.pop_back();
  }
  if (text.empty() || text.size() > 100) return std::nullopt;
  bool const floating = is_floating(p.dtype);
  static RE2 const kInteger(R"([-+]?[0-9]{1,19})", RE2::Latin1);
  static RE2 const kFloating(R"([-+]?([0-9]{1,40}\.?[0-9]{0,40}|\.[0-9]{1,40})([eE][-+]?[0-9]{1,4})?)",
                             RE2::Latin1);
  if (RE2::FullMatch(text, kInteger)) {
    if (!floating) return text;
    return text + ".0";
  }
  if (floating && RE2::FullMatch(text, kFloating)) {
    if (auto const dot = text.find('.');
        dot != std::string::npos && (dot + 1 == text.size() || text[dot + 1] < '0' || text[dot + 1] > '9'))
      text.insert(dot + 1, "0");
    if (text.front() == '.') text.insert(0, "0");
    if (text.size() > 1 && text[1] == '.' && (text[0] == '-' || text[0] == '+')) text.insert(1, "0");
    return text;
  }
  return std::nullopt;
}

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string canonical_signature(Signature const& sig) {
  std::string text = "extern \"C\" " + std::string(sig.return_type()) + " " + sig.function + "(";
  for (std::size_t i = 0; i < sig.params.size(); ++i) {
    if (i > 0) text += ", ";
    text += sig.params[i].c_type + " " + sig.params[i].name;
  }
  return text + ")";
}

struct Skeleton {
  std::string text;
  std::vector<std::string> todos;
};

// Example expressions in the skeleton's comments use the launcher's own integer parameters (a user
// copies them): "n" and "ceil_div(n, 256)" for `int n`, "rows*cols" for `int rows, int cols`.
struct ExampleExpressions {
  std::string count;     // an element count
  std::string bytes;     // bytes moved by all buffers, if each held `count` elements
  std::string grid_x;    // a 1-D grid over `count`
  std::string integers;  // "n" or "rows, cols" (empty: the launcher has no integer parameter)
};

ExampleExpressions example_expressions(Signature const& sig) {
  std::vector<std::string> integers;
  std::size_t element_bytes = 0;
  for (auto const& p : sig.params) {
    if (p.is_scalar() && !is_floating(p.dtype)) integers.push_back(p.name);
    if (p.is_pointer) element_bytes += size_of(p.dtype) * static_cast<std::size_t>(p.lanes);
  }
  ExampleExpressions examples;
  if (integers.empty()) {
    examples.count = "1024";
  } else {
    for (std::size_t i = 0; i < std::min<std::size_t>(integers.size(), 2); ++i)
      examples.count += (i > 0 ? "*" : "") + integers[i];
    for (std::size_t i = 0; i < integers.size(); ++i) examples.integers += (i > 0 ? ", " : "") + integers[i];
  }
  examples.bytes = std::to_string(element_bytes == 0 ? 4 : element_bytes) + "*" + examples.count;
  examples.grid_x = "ceil_div(" + examples.count + ", 256)";
  return examples;
}

Skeleton make_skeleton(Signature const& sig, std::string const& source_name) {
  Skeleton out;
  auto const examples = example_expressions(sig);
  std::string const over_integers =
      examples.integers.empty()
          ? "the launcher has no integer parameter: a constant such as \"1024\""
          : "an integer expression over " + examples.integers + " such as \"" + examples.count + "\"";
  std::ostringstream t;
  t << "# kopt task spec generated by `kopt init` from " << source_name << ".\n"
    << "# Replace every TODO (the spec does not load until all are gone), then run `kopt task check <dir>`.\n"
    << "# Reference: docs/task-format.md\n"
    << "name = " << toml_quote(sig.function) << "\n"
    << "description = \"TODO: say in plain language what " << sig.function << " computes\"\n"
    << "# family = \"\"  # optional: strategy family, e.g. \"row_softmax\"\n"
    << "trials = 3\n\n"
    << "[entry]\n"
    << "signature = " << toml_quote(canonical_signature(sig)) << "\n";
  out.todos.push_back("description: say in plain language what " + sig.function + " computes");

  bool has_scalars = false;
  for (auto const& p : sig.params) has_scalars = has_scalars || p.is_scalar();
  if (has_scalars) {
    t << "\n# [scalars]  # optional defaults for scalar parameters, used by size cases that omit them\n";
    for (auto const& p : sig.params) {
      if (p.is_scalar()) t << "# " << p.name << " = " << (is_floating(p.dtype) ? "1.0" : "1024") << "\n";
    }
  }

  std::vector<DType> output_dtypes;
  for (auto const& p : sig.params) {
    if (!p.is_pointer) continue;
    std::string role = p.is_const ? "input" : "output";
    t << "\n[buffers." << p.name << "]\n"
      << "# role = \"" << role << "\"  # inferred: " << (p.is_const ? "const" : "non-const") << " pointer '"
      << p.c_type << "'"
      << (p.is_const ? "" : " (\"inout\" if the kernel also reads it, \"scratch\" if it is workspace)")
      << "\n"
      << "length = \"TODO\"  # element count: " << over_integers << "\n";
    if (p.lanes > 1) {
      std::string element = p.c_type.substr(0, p.c_type.size() - 1);  // "const cufftComplex"
      if (element.rfind("const ", 0) == 0) element.erase(0, 6);
      t << "# one element is one " << element << " (" << p.lanes << " x " << to_string(p.dtype)
        << "): generated and compared as its " << p.lanes << " scalars\n";
    }
    if (p.is_const) {
      t << (is_floating(p.dtype)
                ? "# generator = { kind = \"uniform\", low = -1.0, high = 1.0 }  # default when omitted\n"
                : "# generator = { kind = \"int_uniform\", low = 0, high = 100 }\n");
    } else if (std::find(output_dtypes.begin(), output_dtypes.end(), p.dtype) == output_dtypes.end()) {
      output_dtypes.push_back(p.dtype);
    }
    out.todos.push_back("buffers." + p.name + ".length: element count of '" + p.name +
                        "' as an expression over the integer scalars");
  }

  t << "\n[[sizes]]  # add more [[sizes]]; `verify_only = true` checks a size without timing it\n"
    << "name = \"small\"\n";
  for (auto const& p : sig.params) {
    if (!p.is_scalar()) continue;
    if (auto const value = default_value(p)) {
      t << p.name << " = " << *value << "  # the launcher's default argument (" << p.c_type << " " << p.name
        << " = " << p.default_argument << ")\n";
      continue;
    }
    t << p.name << " = \"TODO\"  # " << (is_floating(p.dtype) ? "a number" : "an integer") << " (" << p.c_type
      << ")\n";
    out.todos.push_back("sizes[0]." + p.name + ": a value for '" + p.name +
                        "' (add more [[sizes]] as needed)");
  }

  t << "\n[tolerance]  # per output dtype: |got - ref| <= atol * max|ref| + rtol * |ref|\n";
  for (auto dtype : output_dtypes) {
    auto tol = default_tolerance(dtype);
    t << to_string(dtype) << " = { atol = " << format_number(tol.atol)
      << ", rtol = " << format_number(tol.rtol) << " }\n";
  }

  t << "\n[reference]\n"
    << "source = \"reference.cu\"\n"
    << "libraries = []  # e.g. [\"cublas\"]\n"
    << "\n[work]  # optional: delete the section if unknown\n"
    << "bytes = \"TODO\"  # minimum bytes moved through device memory per call, e.g. \"" << examples.bytes
    << "\"\n"
    << "flops = \"TODO\"  # floating-point operations per call, e.g. \"" << examples.count << "\"\n";
  out.todos.emplace_back("work.bytes: minimum bytes moved per call (or delete [work])");
  out.todos.emplace_back("work.flops: floating-point operations per call (or delete [work])");

  t << "\n# [launch]  # optional: enables kernel-mode candidates (device code only)\n"
    << "# kernel = \"" << sig.function << "_kernel\"\n"
    << "# grid = [\"" << examples.grid_x << "\"]\n"
    << "# block = [\"256\"]\n"
    << "# shared_bytes = \"0\"\n";
  out.text = t.str();
  return out;
}

}  // namespace

Result<InitResult> init_task(std::filesystem::path const& launcher_source,
                             std::filesystem::path const& task_dir, bool overwrite) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(launcher_source, ec)) {
    return make_error(ErrorCode::not_found, launcher_source.string() +
                                                ": launcher source not found; expected a .cu "
                                                "file with an extern \"C\" launcher");
  }
  std::ifstream in(launcher_source, std::ios::binary);
  std::ostringstream source;
  source << in.rdbuf();
  if (!in) return make_error(ErrorCode::io_error, launcher_source.string() + ": could not be read");

  auto found = find_launcher(source.str(), launcher_source.string());
  if (!found.ok()) return std::move(found).error();

  std::filesystem::path const spec_path = task_dir / "task.toml";
  std::filesystem::path const reference_path = task_dir / "reference.cu";
  bool same_file = std::filesystem::exists(reference_path, ec) &&
                   std::filesystem::equivalent(launcher_source, reference_path, ec);
  if (!overwrite) {
    for (auto const& path : {spec_path, reference_path}) {
      if (path == reference_path && same_file) continue;
      if (std::filesystem::exists(path, ec)) {
        return make_error(
            ErrorCode::invalid_argument,
            path.string() + " already exists; expected a new task folder (or overwrite it explicitly)");
      }
    }
  }
  std::filesystem::create_directories(task_dir, ec);
  if (ec) {
    return make_error(ErrorCode::io_error,
                      task_dir.string() + ": could not create the task folder: " + ec.message());
  }
  if (!same_file) {
    std::filesystem::copy_file(launcher_source, reference_path,
                               std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) {
      return make_error(ErrorCode::io_error,
                        reference_path.string() + ": could not copy the launcher: " + ec.message());
    }
  }
  auto skeleton = make_skeleton(found->signature, launcher_source.filename().string());
  std::ofstream out(spec_path, std::ios::binary | std::ios::trunc);
  out << skeleton.text;
  out.close();
  if (!out) return make_error(ErrorCode::io_error, spec_path.string() + ": could not be written");

  InitResult result;
  result.task_dir = std::filesystem::absolute(task_dir, ec);
  if (ec) result.task_dir = task_dir;
  result.todos = std::move(skeleton.todos);
  return result;
}

}  // namespace kopt
