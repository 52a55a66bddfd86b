// apply_launch_annotation: a kernel-mode candidate may set its own launch geometry, and the arguments its
// kernel takes when they are not the launcher's parameters in order, with
//   // kopt:launch grid=(ceil_div(N,256)) block=(256) shared=(0) kernel=name args=(c, a, b, i32(N))
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/compile.hpp"
#include "kopt/text.hpp"

namespace kopt {
namespace {

constexpr std::string_view kMarker = "kopt:launch";

Error annotation_error(std::size_t line, std::string_view field, std::string const& what) {
  if (field.empty())
    return make_error(ErrorCode::invalid_spec, fmt::format("line {}: kopt:launch: {}", line, what));
  return make_error(ErrorCode::invalid_spec,
                    fmt::format("line {}: kopt:launch field '{}': {}", line, field, what));
}

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// Splits "a, min(b,c), d" at top-level commas.
std::vector<std::string> split_top_level(std::string_view text) {
  std::vector<std::string> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')') --depth;
    if (text[i] == ',' && depth == 0) {
      parts.emplace_back(trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.emplace_back(trim(text.substr(start)));
  return parts;
}

Result<std::vector<Expr>> parse_dims(std::size_t line, std::string_view field, std::string const& value) {
  std::vector<std::string> const parts = split_top_level(value);
  if (parts.size() > 3) {
    return annotation_error(line, field, fmt::format("expected 1 to 3 dimensions, got {}", parts.size()));
  }
  std::vector<Expr> dims;
  for (auto const& part : parts) {
    if (part.empty()) return annotation_error(line, field, fmt::format("empty dimension in '({})'", value));
    auto expr = Expr::parse(part);
    if (!expr) return annotation_error(line, field, fmt::format("'{}': {}", part, expr.error().message));
    dims.push_back(std::move(*expr));
  }
  return dims;
}

bool is_identifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

// `c`, `i32(rows * cols)`, `f32(0.5)`, `f32(alpha)`: a task parameter by name, a typed computed value, or
// a double parameter of the task rounded to float.
Result<KernelArgument> parse_argument(std::size_t line, std::string const& text) {
  KernelArgument arg;
  arg.text = text;
  if (is_identifier(text)) {
    arg.parameter = text;
    return arg;
  }
  auto const open = text.find('(');
  auto const type = open == std::string::npos ? std::nullopt : dtype_from_string(trim(text.substr(0, open)));
  bool const typed = type && text.back() == ')' &&
                     (*type == DType::i32 || *type == DType::i64 || *type == DType::u32 ||
                      *type == DType::u64 || *type == DType::f32 || *type == DType::f64);
  if (!typed) {
    return annotation_error(line, "args",
                            fmt::format("'{}': expected a parameter name, or i32(..), i64(..), u32(..), "
                                        "u64(..) of an integer expression, f32(..), f64(..) of a number, or "
                                        "f32(..) of a double parameter",
                                        text));
  }
  arg.type = *type;
  std::string const inner(trim(text.substr(open + 1, text.size() - open - 2)));
  if (arg.type == DType::f32 && is_identifier(inner)) {  // a double parameter of the task, rounded
    arg.parameter = inner;
    arg.converted = true;
    return arg;
  }
  if (is_floating(arg.type)) {
    char* end = nullptr;
    arg.number = std::strtod(inner.c_str(), &end);
    if (inner.empty() || end != inner.c_str() + inner.size()) {
      return annotation_error(line, "args", fmt::format("'{}': '{}' is not a number", text, inner));
    }
    return arg;
  }
  auto expr = Expr::parse(inner);
  if (!expr) return annotation_error(line, "args", fmt::format("'{}': {}", text, expr.error().message));
  arg.expression = std::move(*expr);
  return arg;
}

bool is_kernel_name(std::string const& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  for (char const c : name) {
    bool const allowed = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':' ||
                         c == '<' || c == '>' || c == ',';
    if (!allowed) return false;
  }
  return true;
}

// The annotation text after the marker, if `line` is a `// kopt:launch` comment line.
std::optional<std::string_view> annotation_body(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_space(line[i])) ++i;
  if (line.substr(i, 2) != "//") return std::nullopt;
  i += 2;
  while (i < line.size() && is_space(line[i])) ++i;
  if (line.substr(i, kMarker.size()) != kMarker) return std::nullopt;
  std::string_view rest = line.substr(i + kMarker.size());
  if (!rest.empty() && !is_space(rest.front())) return std::nullopt;  // e.g. "kopt:launcher"
  return rest;
}

Status apply_fields(std::string_view body, std::size_t line, LaunchSpec& spec) {
  std::set<std::string, std::less<>> seen;
  std::size_t i = 0;
  while (true) {
    while (i < body.size() && is_space(body[i])) ++i;
    if (i >= body.size()) break;
    std::size_t const name_start = i;
    while (i < body.size() && body[i] != '=' && !is_space(body[i])) ++i;
    std::string const field(body.substr(name_start, i - name_start));
    if (i >= body.size() || body[i] != '=') {
      return annotation_error(line, "", fmt::format("expected field=value, got '{}'", field));
    }
    ++i;  // '='
    std::string value;
    if (i < body.size() && body[i] == '(') {
      int depth = 0;
      std::size_t const open = i;
      for (; i < body.size(); ++i) {
        if (body[i] == '(') ++depth;
        if (body[i] == ')' && --depth == 0) break;
      }
      if (i >= body.size()) return annotation_error(line, field, "missing ')'");
      value = std::string(trim(body.substr(open + 1, i - open - 1)));
      ++i;
    } else {
      std::size_t const start = i;
      while (i < body.size() && !is_space(body[i])) ++i;
      value = std::string(body.substr(start, i - start));
    }
    if (!seen.insert(field).second) return annotation_error(line, field, "given twice");
    if (value.empty()) return annotation_error(line, field, "empty value");

    if (field == "grid" || field == "block") {
      auto dims = parse_dims(line, field, value);
      if (!dims) return dims.error();
      (field == "grid" ? spec.grid : spec.block) = std::move(*dims);
    } else if (field == "shared") {
      auto expr = Expr::parse(value);
      if (!expr) return annotation_error(line, field, fmt::format("'{}': {}", value, expr.error().message));
      spec.shared_bytes = std::move(*expr);
    } else if (field == "kernel") {
      if (!is_kernel_name(value)) {
        return annotation_error(line, field, fmt::format("'{}' is not a kernel name", value));
      }
      spec.kernel = value;
    } else if (field == "args") {
      spec.args.clear();
      for (std::string const& part : split_top_level(value)) {
        if (part.empty())
          return annotation_error(line, field, fmt::format("empty argument in '({})'", value));
        auto arg = parse_argument(line, part);
        if (!arg) return arg.error();
        spec.args.push_back(std::move(*arg));
      }
    } else {
      return annotation_error(
          line, "", fmt::format("unknown field '{}' (expected grid, block, shared, kernel or args)", field));
    }
  }
  if (seen.empty())
    return annotation_error(line, "", "no fields (expected grid=(..) block=(..) shared=(..) kernel=..)");
  return Ok{};
}

}  // namespace

Result<LaunchSpec> apply_launch_annotation(std::string const& source, LaunchSpec const& base) {
  LaunchSpec spec = base;
  std::optional<std::size_t> first_line;
  std::string_view text = source;
  std::size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    std::size_t const end = text.find('\n');
    std::string_view const line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    auto const body = annotation_body(line);
    if (!body) continue;
    if (first_line) {
      return annotation_error(
          line_number, "",
          fmt::format("a second annotation (the first is on line {}); use one line", *first_line));
    }
    first_line = line_number;
    if (auto status = apply_fields(*body, line_number, spec); !status) return status.error();
  }
  return spec;
}

Result<LaunchSpec> candidate_launch(std::string const& source, std::optional<LaunchSpec> const& task_launch,
                                    std::string const& entry) {
  LaunchSpec base;
  if (task_launch) base = *task_launch;
  if (base.kernel.empty()) base.kernel = entry;
  auto spec = apply_launch_annotation(source, base);
  if (!spec) return spec;
  if (spec->grid.empty() || spec->block.empty()) {
    return make_error(
        ErrorCode::not_found,
        "kernel-mode candidate, but neither the task's [launch] section nor a "
        "`// kopt:launch grid=(..) block=(..)` line in the candidate gives the launch geometry");
  }
  return spec;
}

}  // namespace kopt
