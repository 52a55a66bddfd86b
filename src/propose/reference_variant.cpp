// reference_variant: the task's own reference as one more candidate of a size dispatch, for the size cases
// where no verified kernel beats it (docs/strategies.md, "Dispatch by size").
#include <fmt/format.h>
#include <re2/re2.h>

#include <set>
#include <sstream>

#include "kopt/compile.hpp"
#include "kopt/propose.hpp"
#include "kopt/text.hpp"

namespace kopt {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxIncludeDepth = 8;

// `text` (the contents of `file`) with each `#include "name"` replaced by that file's text, read relative to
// the including file, each file once (a second include of it is dropped, as its guard would drop it), and
// `#pragma once` lines taken out (the text is no longer a file of its own). `#include <...>` lines stay.
Result<std::string> inline_local_includes(std::string const& text, fs::path const& file,
                                          std::set<fs::path>& seen, int depth) {
  static RE2 const local_include(R"re(^[ \t]*#[ \t]*include[ \t]*"([^"]+)".*$)re", RE2::Latin1);
  static RE2 const pragma_once(R"(^[ \t]*#[ \t]*pragma[ \t]+once\b.*$)", RE2::Latin1);
  std::string out;
  std::istringstream lines(text);
  std::size_t number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    std::string name;
    if (RE2::FullMatch(line, pragma_once)) continue;
    if (!RE2::FullMatch(line, local_include, &name)) {
      out += line + "\n";
      continue;
    }
    fs::path const included = fs::weakly_canonical(file.parent_path() / name);
    if (!seen.insert(included).second) continue;
    if (depth >= kMaxIncludeDepth) {
      return make_error(ErrorCode::invalid_argument, fmt::format("{}:{}: includes nest deeper than {} files",
                                                                 file.string(), number, kMaxIncludeDepth));
    }
    auto body = read_text_file(included);
    if (!body) {
      return make_error(ErrorCode::invalid_argument,
                        fmt::format("{}:{}: #include \"{}\" cannot be read", file.string(), number, name));
    }
    auto inlined = inline_local_includes(*body, included, seen, depth + 1);
    if (!inlined) return inlined.error();
    out += fmt::format("// ---- {} (inlined) ----\n{}", name, *inlined);
  }
  return out;
}

}  // namespace

Result<ScreenedCandidate> reference_variant(TaskSpec const& task) {
  if (task.reference.is_torch()) {
    return make_error(ErrorCode::invalid_argument, "the reference is a PyTorch module, not CUDA source");
  }
  if (!task.reference.libraries.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("the reference links {}: a vendor path is a baseline, not a variant",
                                  task.reference.libraries.front()));
  }
  auto const text = read_text_file(task.reference.path);
  if (!text) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("{}: cannot be read", task.reference.path.string()));
  }
  std::set<fs::path> seen = {fs::weakly_canonical(task.reference.path)};
  auto source = inline_local_includes(*text, task.reference.path, seen, 0);
  if (!source) return source.error();
  auto const mode = detect_mode(*source, task.signature.function);
  if (!mode || (*mode == CandidateMode::kernel && !task.launch)) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("{}: neither a launcher named {} nor a kernel the task's [launch] starts",
                                  task.reference.path.string(), task.signature.function));
  }
  ScreenedCandidate reference;
  reference.strategy = "reference";
  reference.input.name = "reference";
  reference.input.source = std::move(*source);
  reference.input.mode = *mode;
  reference.any_flags = true;
  for (SizeCase const& size : task.sizes) {
    if (!size.verify_only) reference.speedups[size.name] = 1.0;
  }
  return reference;
}

}  // namespace kopt
