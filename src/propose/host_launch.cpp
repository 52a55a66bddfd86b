// Host code around library kernels: kopt's integer expressions as C++, a parameter list, and a host
// function that launches a kernel-mode source's kernel as the evaluator would (host_launch.hpp).
#include "propose/host_launch.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "kopt/compile.hpp"

namespace kopt {
namespace {

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

constexpr std::string_view kHelpers = R"(namespace kopt_host {
inline long long kopt_min(long long a, long long b) { return a < b ? a : b; }
inline long long kopt_max(long long a, long long b) { return a > b ? a : b; }
inline long long kopt_ceil_div(long long a, long long b) { return (a + b - 1) / b; }
inline long long kopt_abs(long long a) { return a < 0 ? -a : a; }
inline long long kopt_log2(long long a) { long long r = 0; while (a > 1) { a >>= 1; ++r; } return r; }
inline long long kopt_pow(long long a, long long b) { long long r = 1; while (b-- > 0) r *= a; return r; }
inline long long kopt_sqrt(long long a) {
  long long r = static_cast<long long>(__builtin_sqrt(static_cast<double>(a)));
  while (r * r > a) --r;
  while ((r + 1) * (r + 1) <= a) ++r;
  return r;
}
// A pointer to a task's vector or complex elements (float2*, cufftComplex*) passed where the callee takes
// their scalars (float*), to bools where the callee reads bytes (uint8_t*), or to 64-bit integers spelled
// `int64_t` (long) where the callee takes `long long`:
// the same address as whatever pointer the callee takes.
struct kopt_any_pointer {
  const void* address;
  template <class T> operator T*() const { return static_cast<T*>(const_cast<void*>(address)); }
};
}  // namespace kopt_host
using namespace kopt_host;
)";

// `known` holds the names a launch may read: the launcher's integer scalars, the source's macros and knobs.
Result<std::string> launch_expression(Expr const& expr, std::vector<std::string> const& known,
                                      std::string const& where) {
  for (std::string const& name : expr.identifiers()) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return make_error(ErrorCode::invalid_argument,
                        fmt::format("{}: its launch reads '{}', which is neither an integer parameter of "
                                    "the launcher nor a macro of the kernel (expected an expression over {})",
                                    where, name, fmt::join(known, ", ")));
    }
  }
  return cpp_expression(expr.text());
}

Result<std::string> launch_dims(std::vector<Expr> const& dims, std::vector<std::string> const& known,
                                std::string const& where) {
  std::vector<std::string> out;
  for (Expr const& e : dims) {
    auto value = launch_expression(e, known, where);
    if (!value) return value.error();
    out.push_back(fmt::format("static_cast<unsigned int>({})", *value));
  }
  return fmt::format("{}", fmt::join(out, ", "));
}

// The names a kernel-mode source's launch may read besides the launcher's integer scalars: its #define'd
// macros and its knobs (defined as macros when a configuration is materialised).
std::vector<std::string> source_macros(std::string const& source) {
  static RE2 const define_line(R"((?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*))", RE2::Latin1);
  static RE2 const knob_line(R"((?m)^[ \t]*//[ \t]*kopt:knob[ \t]+([A-Za-z_][A-Za-z0-9_]*))", RE2::Latin1);
  std::vector<std::string> names;
  for (RE2 const* pattern : {&define_line, &knob_line}) {
    re2::StringPiece input(source);
    std::string name;
    while (RE2::FindAndConsume(&input, *pattern, &name)) names.push_back(name);
  }
  return names;
}

}  // namespace

std::string cpp_expression(std::string const& text) {
  static std::set<std::string, std::less<>> const functions = {"min",  "max", "ceil_div", "abs",
                                                               "log2", "pow", "sqrt"};
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (std::isdigit(static_cast<unsigned char>(text[i])) != 0) {  // a number keeps its digits together
      while (i < text.size() && is_word_char(text[i])) out += text[i++];
      continue;
    }
    if (!is_word_char(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_word_char(text[end])) ++end;
    std::string const word = text.substr(i, end - i);
    std::size_t next = end;
    while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next])) != 0) ++next;
    bool const call = next < text.size() && text[next] == '(';
    out += call && functions.contains(word) ? "kopt_" + word : "static_cast<long long>(" + word + ")";
    i = end;
  }
  return out;
}

std::string_view cpp_expression_helpers() {
  return kHelpers;
}

std::string pointer_argument(TaskSpec const& task, std::string const& name) {
  auto const param = std::find_if(task.signature.params.begin(), task.signature.params.end(),
                                  [&](Param const& p) { return p.name == name; });
  if (param == task.signature.params.end() || !param->is_pointer) return name;
  // A vector pointer goes where the callee takes its scalars; a 64-bit integer pointer where the callee
  // spells the type otherwise (the task's int64_t is `long`, a template's {{I}} is `long long`).
  bool const vector = param->lanes > 1;
  bool const wide_integer = param->dtype == DType::i64 || param->dtype == DType::u64;
  bool const boolean = param->dtype == DType::boolean;  // read as the bytes it is (a uint8_t role)
  return vector || wide_integer || boolean ? "kopt_any_pointer{" + name + "}" : name;
}

std::string element_type_includes(TaskSpec const& task) {
  std::set<std::string> headers;
  for (Param const& p : task.signature.params) {
    if (!p.type_header.empty()) headers.insert(p.type_header);
  }
  if (headers.empty()) return {};
  std::string out = "#if !defined(__CUDACC_RTC__)\n";
  for (std::string const& header : headers) out += "#include " + header + "\n";
  return out + "#endif\n";
}

std::string parameter_list(TaskSpec const& task) {
  std::vector<std::string> params;
  for (Param const& p : task.signature.params) params.push_back(p.c_type + " " + p.name);
  return fmt::format("{}", fmt::join(params, ", "));
}

std::string argument_list(TaskSpec const& task) {
  std::vector<std::string> names;
  for (Param const& p : task.signature.params) names.push_back(p.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string grow_only_buffer(TaskSpec const& task, std::string const& name, std::string const& bytes) {
  return fmt::format(
      "  static void* {0} = nullptr;\n"
      "  static size_t {0}_bytes = 0;\n"
      "  size_t const {0}_needed = {1};\n"
      "  if ({0}_needed > {0}_bytes) {{\n"
      "    cudaFree({0});\n"
      "    {0} = nullptr;\n"
      "    {0}_bytes = 0;\n"
      "    if (cudaMalloc(&{0}, {0}_needed) != cudaSuccess) return{2};\n"
      "    {0}_bytes = {0}_needed;\n"
      "  }}\n",
      name, bytes, task.signature.returns_error ? " cudaErrorMemoryAllocation" : "");
}

std::string launcher_status(TaskSpec const& task) {
  return task.signature.returns_error ? "  return cudaPeekAtLastError();\n" : "";
}

std::string launch_stream(TaskSpec const& task) {
  auto const stream = std::find_if(task.signature.params.begin(), task.signature.params.end(),
                                   [](Param const& p) { return p.is_stream; });
  return stream == task.signature.params.end() ? "cudaStreamPerThread" : stream->name;
}

Result<std::string> kernel_launcher(TaskSpec const& task, std::string const& source,
                                    std::string const& function, std::string const& entry_rename,
                                    std::string const& where, std::vector<std::string> const& extra_params) {
  std::vector<std::string> known = source_macros(source);
  for (Param const& p : task.signature.params) {
    if (p.is_scalar() && !is_floating(p.dtype)) known.push_back(p.name);
  }
  auto launch = candidate_launch(source, task.launch, task.signature.function);
  if (!launch) return make_error(ErrorCode::invalid_argument, where + ": " + launch.error().message);
  auto grid = launch_dims(launch->grid, known, where);
  if (!grid) return grid.error();
  auto block = launch_dims(launch->block, known, where);
  if (!block) return block.error();
  auto shared = launch_expression(launch->shared_bytes, known, where);
  if (!shared) return shared.error();
  std::vector<std::string> kernel_params;
  for (std::size_t i : task.signature.kernel_parameters())
    kernel_params.push_back(pointer_argument(task, task.signature.params[i].name));
  std::string args = fmt::format("{}", fmt::join(kernel_params, ", "));
  if (!launch->args.empty()) {
    std::vector<std::string> values;
    for (KernelArgument const& a : launch->args) {
      if (!a.parameter.empty() && !a.converted) {
        values.push_back(pointer_argument(task, a.parameter));
      } else if (!a.parameter.empty()) {
        values.push_back(fmt::format("static_cast<{}>({})", c_type_name(a.type), a.parameter));
      } else if (is_floating(a.type)) {
        values.push_back(fmt::format("static_cast<{}>({:.17g})", c_type_name(a.type), a.number));
      } else {
        auto value = launch_expression(a.expression, known, where);
        if (!value) return value.error();
        values.push_back(fmt::format("static_cast<{}>({})", c_type_name(a.type), *value));
      }
    }
    args = fmt::format("{}", fmt::join(values, ", "));
  }
  std::string parameters = parameter_list(task);
  for (std::string const& extra : extra_params) parameters += (parameters.empty() ? "" : ", ") + extra;
  std::string kernel = launch->kernel.empty() ? task.signature.function : launch->kernel;
  if (kernel == task.signature.function || kernel.starts_with(task.signature.function + "<"))
    kernel = entry_rename + kernel.substr(task.signature.function.size());
  return fmt::format(
      "void {0}({1}) {{\n"
      "  dim3 const kopt_grid({2});\n"
      "  dim3 const kopt_block({3});\n"
      "  size_t const kopt_shared = static_cast<size_t>({4});\n"
      "  if (kopt_shared > 48 * 1024)\n"
      "    cudaFuncSetAttribute({5}, cudaFuncAttributeMaxDynamicSharedMemorySize, "
      "static_cast<int>(kopt_shared));\n"
      "  {5}<<<kopt_grid, kopt_block, kopt_shared, {7}>>>({6});\n"
      "}}\n",
      function, parameters, *grid, *block, *shared, kernel, args, launch_stream(task));
}

}  // namespace kopt
