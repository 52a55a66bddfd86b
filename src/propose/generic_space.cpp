// The generic tuning space of a candidate that declares none: compiler flags, and for a kernel-mode
// candidate the block size, __launch_bounds__ and __restrict__ (docs/strategies.md, "Kernels without a
// family"). Text rewrites, each guarded by a knob so the search can also leave the kernel as it was.
#include <fmt/format.h>
#include <re2/re2.h>

#include <optional>
#include <set>
#include <sstream>

#include "kopt/compile.hpp"
#include "kopt/propose.hpp"
#include "kopt/tuning.hpp"

namespace kopt {
namespace {

// The source without its `// kopt:launch` line(s).
std::string without_launch_annotation(std::string const& source) {
  std::string out;
  std::istringstream lines(source);
  // [^\r]*, not .*: a line ending in '\r' (CRLF) is kept, as before RE2 (ECMAScript's '.' excludes '\r';
  // RE2's does not).
  static RE2 const annotation(R"(^\s*//\s*kopt:launch(\s[^\r]*)?$)", RE2::Latin1);
  for (std::string line; std::getline(lines, line);) {
    if (!RE2::FullMatch(line, annotation)) out += line + "\n";
  }
  return out;
}

// Inserts `__launch_bounds__(BLOCK)` before the kernel's name and KOPT_RESTRICT after the last '*' of each
// pointer parameter in the kernel's definition. Empty when the definition is not found.
std::optional<std::string> rewrite_kernel(std::string const& source, std::string const& kernel, bool bounds) {
  RE2 const definition("__global__([^;{(]*?)\\b" + RE2::QuoteMeta(kernel) + R"(\s*\()", RE2::Latin1);
  re2::StringPiece match;
  if (!definition.Match(source, 0, source.size(), RE2::UNANCHORED, &match, 1)) return std::nullopt;
  auto const match_at = static_cast<std::size_t>(match.data() - source.data());
  auto const name_at = match_at + match.size() - 1;  // at '('
  auto const close = source.find(')', name_at);
  if (close == std::string::npos) return std::nullopt;
  std::string params = source.substr(name_at + 1, close - name_at - 1);
  std::string rewritten;
  std::size_t start = 0;
  while (start <= params.size()) {
    auto const comma = params.find(',', start);
    std::string param = params.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    auto const star = param.rfind('*');
    if (star != std::string::npos && param.find("__restrict__") == std::string::npos) {
      param.insert(star + 1, " KOPT_RESTRICT");
    }
    rewritten += param;
    if (comma == std::string::npos) break;
    rewritten += ",";
    start = comma + 1;
  }
  std::string out = source.substr(0, name_at + 1) + rewritten + source.substr(close);
  if (bounds) {
    auto const name_start = match_at + std::string_view(match).rfind(kernel);
    out.insert(name_start, "__launch_bounds__(BLOCK) ");
  }
  return out;
}

}  // namespace

Result<GenericSpace> generic_tuning_space(std::string const& source, TaskSpec const& task) {
  auto space = TuningSpace::parse(source, "candidate");
  if (!space) return space.error();
  if (!space->empty()) {
    return make_error(
        ErrorCode::invalid_argument,
        "the candidate declares its own tuning space (// kopt:knob); the generic one is for kernels "
        "without one");
  }
  auto const entry = task.signature.function;
  auto const kernel_name = task.launch && !task.launch->kernel.empty() ? task.launch->kernel : entry;
  auto mode = detect_mode(source, entry);
  if (!mode && kernel_name != entry) mode = detect_mode(source, kernel_name);
  if (!mode) {
    return make_error(ErrorCode::invalid_argument,
                      "found neither an extern \"C\" launcher " + entry + " nor a __global__ kernel to tune");
  }
  GenericSpace out;
  std::string header =
      "// kopt's generic tuning space (docs/strategies.md, \"Kernels without a family\"):\n"
      "// kopt:flag MAXRREG = [\"\", \"--maxrregcount=32\", \"--maxrregcount=64\", \"--maxrregcount=128\"]\n"
      "// kopt:flag FAST_MATH = [\"\", \"--use_fast_math\"]\n";
  out.added = {"MAXRREG (register cap)", "FAST_MATH (--use_fast_math, where the tolerance allows)"};
  std::string body = source;
  if (*mode == CandidateMode::kernel) {
    auto launch = candidate_launch(source, task.launch, entry);
    if (!launch) return launch.error();
    std::string const kernel = launch->kernel;
    std::optional<std::int64_t> literal;
    if (launch->block.size() == 1 && launch->block[0].identifiers().empty()) {
      if (auto value = launch->block[0].evaluate({}); value && *value > 0) literal = *value;
    }
    if (literal) {
      // The literal block size becomes the knob wherever it appears as a token in the grid.
      RE2 const token("\\b" + std::to_string(*literal) + "\\b", RE2::Latin1);
      std::vector<std::string> grid;
      for (auto const& g : launch->grid) {
        grid.push_back(g.text());
        RE2::GlobalReplace(&grid.back(), token, "BLOCK");
      }
      std::set<std::int64_t> values{64, 128, 256, 512, 1024};
      values.insert(*literal);
      std::string list;
      for (auto v : values) list += (list.empty() ? "" : ", ") + std::to_string(v);
      header += fmt::format("// kopt:knob BLOCK = [{}]\n", list);
      header +=
          fmt::format("// kopt:launch grid=({}) block=(BLOCK) shared=({}) kernel={}\n", fmt::join(grid, ", "),
                      launch->shared_bytes.text().empty() ? "0" : launch->shared_bytes.text(), kernel);
      header += fmt::format("#ifndef BLOCK\n#define BLOCK {}\n#endif\n", *literal);
      out.added.push_back(fmt::format("BLOCK (threads per block, was {}; the grid follows it)", *literal));
      body = without_launch_annotation(source);
    }
    bool const bounds = literal && source.find("__launch_bounds__") == std::string::npos;
    if (auto rewritten = rewrite_kernel(body, kernel, bounds)) {
      body = *rewritten;
      header +=
          "// kopt:knob RESTRICT = [0, 1] resources=none\n#ifndef RESTRICT\n#define RESTRICT 0\n#endif\n"
          "#if RESTRICT\n#define KOPT_RESTRICT __restrict__\n#else\n#define KOPT_RESTRICT\n#endif\n";
      out.added.emplace_back("RESTRICT (__restrict__ on the kernel's pointer parameters)");
      if (bounds) out.added.emplace_back("__launch_bounds__(BLOCK)");
    }
  }
  out.source = header + body;
  return out;
}

}  // namespace kopt
