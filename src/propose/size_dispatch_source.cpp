// size_dispatch_candidate: the variants of a size dispatch plan in one launcher-mode source, and the entry
// that picks one per call (docs/strategies.md, "Dispatch by size").
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

#include "kopt/compile.hpp"
#include "kopt/propose.hpp"

namespace kopt {
namespace {

// What a variant calls the entry's name: the C name is the dispatcher's, and the evaluator must find the
// dispatcher's host function, not a variant's kernel, under it (detect_mode).
constexpr std::string_view kEntry = "kopt_variant_entry";

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// A kopt expression (docs/task-format.md, "Expressions") as C++ over long long: the scalars widened before
// any arithmetic, the functions spelled as the helpers the dispatch source defines.
std::string cpp_expression(std::string const& text) {
  static std::set<std::string, std::less<>> const functions = {"min",  "max", "ceil_div", "abs",
                                                               "log2", "pow", "sqrt"};
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_word_char(text[i]) || std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
      // A number keeps its digits together (no identifier starts inside one).
      if (std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
        while (i < text.size() && is_word_char(text[i])) out += text[i++];
      } else {
        out += text[i++];
      }
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

// The helpers cpp_expression's functions name, with kopt's meaning (floor for log2 and sqrt).
constexpr std::string_view kHelpers = R"(namespace kopt_dispatch {
inline long long kopt_min(long long a, long long b) { return a < b ? a : b; }
inline long long kopt_max(long long a, long long b) { return a > b ? a : b; }
inline long long kopt_ceil_div(long long a, long long b) { return (a + b - 1) / b; }
inline long long kopt_abs(long long a) { return a < 0 ? -a : a; }
inline long long kopt_log2(long long a) { long long r = 0; while (a > 1) { a >>= 1; ++r; } return r; }
inline long long kopt_pow(long long a, long long b) { long long r = 1; while (b-- > 0) r *= a; return r; }
inline long long kopt_sqrt(long long a) {
  long long r = static_cast<long long>(std::sqrt(static_cast<double>(a)));
  while (r * r > a) --r;
  while ((r + 1) * (r + 1) <= a) ++r;
  return r;
}
// Where a call lies among the timed size cases: log2 of each integer scalar (0 below 1).
inline double kopt_log_size(long long v) { return v > 1 ? std::log2(static_cast<double>(v)) : 0.0; }
}  // namespace kopt_dispatch
using namespace kopt_dispatch;
)";

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

// An integer expression of a kernel-mode variant's launch, checked to read only the launcher's integer
// scalars. `known` holds the launcher's integer scalars and the variant's own macros (in scope where it is
// launched).
Result<std::string> launch_expression(Expr const& expr, std::vector<std::string> const& known,
                                      std::string const& where) {
  for (std::string const& name : expr.identifiers()) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return make_error(
          ErrorCode::invalid_argument,
          fmt::format("{}: its launch reads '{}', which is neither an integer parameter of "
                      "the launcher nor a macro of the variant (expected an expression over {})",
                      where, name, fmt::join(known, ", ")));
    }
  }
  return cpp_expression(expr.text());
}

Result<std::string> launch_dims(std::vector<Expr> const& dims, std::vector<std::string> const& scalars,
                                std::string const& where) {
  std::vector<std::string> out;
  for (Expr const& e : dims) {
    auto value = launch_expression(e, scalars, where);
    if (!value) return value.error();
    out.push_back(fmt::format("static_cast<unsigned int>({})", *value));
  }
  return fmt::format("{}", fmt::join(out, ", "));
}

// A launcher for a kernel-mode variant, with the task's parameters: its grid, block, dynamic shared memory
// and arguments evaluated as the evaluator evaluates them for each size case.
Result<std::string> kernel_launcher(TaskSpec const& task, std::string const& source,
                                    std::vector<std::string> const& scalars, std::string const& where) {
  std::vector<std::string> known = scalars;
  {
    static RE2 const define_line(R"((?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*))", RE2::Latin1);
    re2::StringPiece input(source);
    std::string macro;
    while (RE2::FindAndConsume(&input, define_line, &macro)) known.push_back(macro);
  }
  auto launch = candidate_launch(source, task.launch, task.signature.function);
  if (!launch) return make_error(ErrorCode::invalid_argument, where + ": " + launch.error().message);
  auto grid = launch_dims(launch->grid, known, where);
  if (!grid) return grid.error();
  auto block = launch_dims(launch->block, known, where);
  if (!block) return block.error();
  auto shared = launch_expression(launch->shared_bytes, known, where);
  if (!shared) return shared.error();
  std::string args = argument_list(task);
  if (!launch->args.empty()) {
    std::vector<std::string> values;
    for (KernelArgument const& a : launch->args) {
      if (!a.parameter.empty() && !a.converted) {
        values.push_back(a.parameter);
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
  // The variant's text calls the entry's name kEntry (variant_text).
  std::string kernel = launch->kernel.empty() ? task.signature.function : launch->kernel;
  if (kernel == task.signature.function || kernel.starts_with(task.signature.function + "<"))
    kernel = std::string(kEntry) + kernel.substr(task.signature.function.size());
  return fmt::format(
      "void kopt_call({0}) {{\n"
      "  dim3 const kopt_grid({1});\n"
      "  dim3 const kopt_block({2});\n"
      "  size_t const kopt_shared = static_cast<size_t>({3});\n"
      "  if (kopt_shared > 48 * 1024)\n"
      "    cudaFuncSetAttribute({4}, cudaFuncAttributeMaxDynamicSharedMemorySize, "
      "static_cast<int>(kopt_shared));\n"
      "  {4}<<<kopt_grid, kopt_block, kopt_shared>>>({5});\n"
      "}}\n",
      parameter_list(task), *grid, *block, *shared, kernel, args);
}

// One variant's text made to live beside the others: #include lines moved out (into `includes`), kopt
// annotations made plain comments, `extern "C"` taken off and the entry's name changed (the entry's C name
// belongs to the dispatcher), and the macros it defines collected (they are restored after it).
struct VariantText {
  std::string body;
  std::vector<std::string> macros;
};
Result<VariantText> variant_text(std::string const& source, std::string const& entry,
                                 std::vector<std::string>& includes, std::string& arch,
                                 std::string const& where) {
  RE2 const entry_name("\\b" + entry + "\\b", RE2::Latin1);
  static RE2 const extern_block(R"(extern\s*"C"\s*\{)", RE2::Latin1);
  if (RE2::PartialMatch(source, extern_block)) {
    return make_error(ErrorCode::invalid_argument,
                      where +
                          ": an extern \"C\" { ... } block, which a dispatch cannot rename; expected "
                          "extern \"C\" on single declarations");
  }
  static RE2 const include_line(R"(^[ \t]*#[ \t]*include\b.*$)", RE2::Latin1);
  static RE2 const arch_line(R"(^[ \t]*//[ \t]*kopt:arch[ \t]+(\S+))", RE2::Latin1);
  static RE2 const define_line(R"(^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*))", RE2::Latin1);
  VariantText out;
  std::istringstream lines(source);
  std::string line;
  while (std::getline(lines, line)) {
    std::string variant_arch;
    if (RE2::FullMatch(line, include_line)) {
      if (std::find(includes.begin(), includes.end(), line) == includes.end()) includes.push_back(line);
      out.body += "// (moved to the top) " + line + "\n";
      continue;
    }
    if (RE2::PartialMatch(line, arch_line, &variant_arch)) {
      if (!arch.empty() && arch != variant_arch) {
        return make_error(ErrorCode::invalid_argument,
                          fmt::format("{}: built for {}, another variant for {}; expected one architecture",
                                      where, variant_arch, arch));
      }
      arch = variant_arch;
    }
    std::string macro;
    if (RE2::PartialMatch(line, define_line, &macro) &&
        std::find(out.macros.begin(), out.macros.end(), macro) == out.macros.end()) {
      out.macros.push_back(macro);
    }
    static RE2 const annotation(R"((//[ \t]*)kopt:)", RE2::Latin1);
    static RE2 const extern_c(R"(extern[ \t]*"C"[ \t]*)", RE2::Latin1);
    RE2::GlobalReplace(&line, annotation, R"(\1kopt variant, was kopt-)");
    RE2::GlobalReplace(&line, extern_c, "");
    RE2::GlobalReplace(&line, entry_name, std::string(kEntry));
    out.body += line + "\n";
  }
  return out;
}

std::string case_table(SizeDispatchPlan const& plan) {
  std::string rows;
  std::string variants;
  for (SizeDispatchPlan::Case const& c : plan.cases) {
    std::vector<std::string> logs;
    std::vector<std::string> values;
    for (std::size_t k = 0; k < plan.scalars.size(); ++k) {
      double const v = c.point[k] > 1 ? std::log2(static_cast<double>(c.point[k])) : 0.0;
      logs.push_back(fmt::format("{:.17g}", v));
      values.push_back(fmt::format("{}={}", plan.scalars[k], c.point[k]));
    }
    rows += fmt::format("      {{{}}},  // {}: {}\n", fmt::join(logs, ", "), c.size, fmt::join(values, ", "));
    variants += fmt::format("{}{}", variants.empty() ? "" : ", ", c.variant);
  }
  return fmt::format(
      "  static double const kopt_cases[{0}][{1}] = {{\n{2}  }};\n"
      "  static int const kopt_case_variant[{0}] = {{{3}}};\n",
      plan.cases.size(), plan.scalars.size(), rows, variants);
}

}  // namespace

Result<CandidateInput> size_dispatch_candidate(TaskSpec const& task, SizeDispatchPlan const& plan) {
  if (plan.variants.size() < 2 || plan.cases.empty() || plan.scalars.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "a size dispatch needs two variants, timed size cases and an integer scalar");
  }
  std::vector<std::string> includes = {"#include <cmath>", "#include <cuda_runtime.h>"};
  std::string arch;
  std::string variants;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < plan.variants.size(); ++i) {
    auto const& variant = plan.variants[i];
    std::string const where =
        fmt::format("dispatch variant {} ({}, {})", i, variant.strategy, variant.input.name);
    auto text = variant_text(variant.input.source, task.signature.function, includes, arch, where);
    if (!text) return text.error();
    std::string call;
    if (variant.input.mode == CandidateMode::kernel) {
      auto launcher = kernel_launcher(task, variant.input.source, plan.scalars, where);
      if (!launcher) return launcher.error();
      call = *launcher;
    } else {
      call = fmt::format("void kopt_call({}) {{ {}({}); }}\n", parameter_list(task), kEntry,
                         argument_list(task));
    }
    // Its macros are its own: each is saved before it and restored after it (undefined if it was).
    variants += fmt::format("\n// ---- variant {}: {} {} (size cases {}) ----\n", i, variant.strategy,
                            variant.input.name, fmt::join(variant.sizes, ", "));
    for (std::string const& macro : text->macros) variants += "#pragma push_macro(\"" + macro + "\")\n";
    variants += fmt::format("namespace kopt_variant_{} {{\n{}\n{}}}  // namespace kopt_variant_{}\n", i,
                            text->body, call, i);
    for (std::string const& macro : text->macros)
      variants += "#undef " + macro + "\n#pragma pop_macro(\"" + macro + "\")\n";
    names.push_back(variant.strategy);
  }
  std::string dispatch = fmt::format(
      "\n// The task's launcher: the variant chosen for the timed size case nearest to the call, by the\n"
      "// squared differences of log2 of {}.\n"
      "extern \"C\" void {}({}) {{\n{}",
      fmt::join(plan.scalars, ", "), task.signature.function, parameter_list(task), case_table(plan));
  std::vector<std::string> at;
  for (std::string const& s : plan.scalars) at.push_back(fmt::format("kopt_log_size({})", s));
  dispatch += fmt::format(
      "  double const kopt_at[{0}] = {{{1}}};\n"
      "  int kopt_nearest = 0;\n"
      "  double kopt_best = 0.0;\n"
      "  for (int c = 0; c < {2}; ++c) {{\n"
      "    double d = 0.0;\n"
      "    for (int k = 0; k < {0}; ++k) d += (kopt_at[k] - kopt_cases[c][k]) * (kopt_at[k] - "
      "kopt_cases[c][k]);\n"
      "    if (c == 0 || d < kopt_best) {{\n"
      "      kopt_best = d;\n"
      "      kopt_nearest = c;\n"
      "    }}\n"
      "  }}\n"
      "  switch (kopt_case_variant[kopt_nearest]) {{\n",
      plan.scalars.size(), fmt::join(at, ", "), plan.cases.size());
  for (std::size_t i = 0; i < plan.variants.size(); ++i) {
    dispatch +=
        fmt::format("    case {}: kopt_variant_{}::kopt_call({}); return;\n", i, i, argument_list(task));
  }
  dispatch += "    default: return;\n  }\n}\n";

  std::string head =
      fmt::format("// kopt size dispatch for task {}: {}\n", task.name, fmt::join(names, " | "));
  if (!arch.empty()) head += "// kopt:arch " + arch + "\n";
  for (std::string const& include : includes) head += include + "\n";
  head += kHelpers;

  CandidateInput candidate;
  std::vector<std::string> parts;
  for (auto const& v : plan.variants) parts.push_back(v.strategy + ":" + v.input.name);
  candidate.name = fmt::format("dispatch({})", fmt::join(parts, " | "));
  candidate.source = head + variants + dispatch;
  candidate.flags = plan.flags;
  candidate.mode = CandidateMode::launcher;
  return candidate;
}

}  // namespace kopt
