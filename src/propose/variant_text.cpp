// Candidate texts side by side in one source: namespaced, their macros restored, their entries renamed
// (propose/variant_text.hpp).
#include "propose/variant_text.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <sstream>

#include "propose/host_launch.hpp"

namespace kopt {

Result<VariantText> variant_text(std::string const& source, std::string const& entry,
                                 std::vector<std::string>& includes, std::string& arch,
                                 std::string const& where) {
  RE2 const entry_name("\\b" + entry + "\\b", RE2::Latin1);
  static RE2 const extern_block(R"(extern\s*"C"\s*\{)", RE2::Latin1);
  if (RE2::PartialMatch(source, extern_block)) {
    return make_error(ErrorCode::invalid_argument,
                      where +
                          ": an extern \"C\" { ... } block, which cannot be renamed; expected "
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
    RE2::GlobalReplace(&line, entry_name, std::string(kVariantEntry));
    out.body += line + "\n";
  }
  return out;
}

Result<std::string> variant_call(TaskSpec const& task, std::string const& source, CandidateMode mode,
                                 std::string const& where) {
  bool const status = task.signature.returns_error;
  if (mode == CandidateMode::kernel) {
    auto launcher = kernel_launcher(task, source, status ? "kopt_launch" : "kopt_call",
                                    std::string(kVariantEntry), where);
    if (!launcher) return launcher.error();
    std::string call = *launcher;
    if (status) {
      call += fmt::format(
          "cudaError_t kopt_call({}) {{\n  kopt_launch({});\n  return cudaPeekAtLastError();\n}}\n",
          parameter_list(task), argument_list(task));
    }
    return call;
  }
  if (status) {
    return fmt::format(
        "cudaError_t kopt_call({}) {{\n  cudaError_t const e = {}({});\n  return e != cudaSuccess ? e : "
        "cudaPeekAtLastError();\n}}\n",
        parameter_list(task), kVariantEntry, argument_list(task));
  }
  return fmt::format("void kopt_call({}) {{ {}({}); }}\n", parameter_list(task), kVariantEntry,
                     argument_list(task));
}

std::string namespaced_variant(VariantText const& text, std::string const& call, std::string const& name,
                               std::string const& heading) {
  std::string out = fmt::format("\n// ---- {} ----\n", heading);
  for (std::string const& macro : text.macros) out += "#pragma push_macro(\"" + macro + "\")\n";
  out += fmt::format("namespace {} {{\n{}\n{}}}  // namespace {}\n", name, text.body, call, name);
  for (std::string const& macro : text.macros)
    out += "#undef " + macro + "\n#pragma pop_macro(\"" + macro + "\")\n";
  return out;
}

}  // namespace kopt
