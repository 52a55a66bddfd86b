// size_dispatch_candidate: the variants of a size dispatch plan in one launcher-mode source, and the entry
// that picks one per call (docs/strategies.md, "Dispatch by size").
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "kopt/propose.hpp"
#include "propose/host_launch.hpp"
#include "propose/variant_text.hpp"

namespace kopt {
namespace {

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
  // <cstdint>: the task's parameter list, written into kopt_call and the launcher, may name fixed-width
  // integer types (a mask's uint8_t, int64_t indices) that a kernel-mode template need not declare.
  std::vector<std::string> includes = {"#include <cmath>", "#include <cstdint>", "#include <cuda_runtime.h>"};
  std::string arch;
  std::string variants;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < plan.variants.size(); ++i) {
    auto const& variant = plan.variants[i];
    std::string const where =
        fmt::format("dispatch variant {} ({}, {})", i, variant.strategy, variant.input.name);
    auto text = variant_text(variant.input.source, task.signature.function, includes, arch, where);
    if (!text) return text.error();
    auto call = variant_call(task, variant.input.source, variant.input.mode, where);
    if (!call) return call.error();
    variants += namespaced_variant(*text, *call, fmt::format("kopt_variant_{}", i),
                                   fmt::format("variant {}: {} {} (size cases {})", i, variant.strategy,
                                               variant.input.name, fmt::join(variant.sizes, ", ")));
    names.push_back(variant.strategy);
  }
  std::string dispatch = fmt::format(
      "\n// The task's launcher: the variant chosen for the timed size case nearest to the call, by the\n"
      "// squared differences of log2 of {}.\n"
      "extern \"C\" {} {}({}) {{\n{}",
      fmt::join(plan.scalars, ", "), task.signature.return_type(), task.signature.function,
      parameter_list(task), case_table(plan));
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
        task.signature.returns_error
            ? fmt::format("    case {}: return kopt_variant_{}::kopt_call({});\n", i, i, argument_list(task))
            : fmt::format("    case {}: kopt_variant_{}::kopt_call({}); return;\n", i, i,
                          argument_list(task));
  }
  dispatch += task.signature.returns_error ? "    default: return cudaErrorUnknown;\n  }\n}\n"
                                           : "    default: return;\n  }\n}\n";

  std::string head =
      fmt::format("// kopt size dispatch for task {}: {}\n", task.name, fmt::join(names, " | "));
  if (!arch.empty()) head += "// kopt:arch " + arch + "\n";
  for (std::string const& include : includes) head += include + "\n";
  head += cpp_expression_helpers();
  head +=
      "// Where a call lies among the timed size cases: log2 of each integer scalar (0 below 1).\n"
      "static inline double kopt_log_size(long long v) { return v > 1 ? std::log2(static_cast<double>(v)) : "
      "0.0; }\n";

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
