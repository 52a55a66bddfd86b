#include "cli/command_compile_only.hpp"

#include <fmt/format.h>

#include <ostream>

#include "cli/options.hpp"
#include "kopt/json_values.hpp"

namespace kopt::cli {
namespace {

Result<std::optional<CandidateMode>> mode_from(std::string const& text) {
  if (text == "auto") return std::optional<CandidateMode>();
  if (text == "kernel") return std::optional<CandidateMode>(CandidateMode::kernel);
  if (text == "launcher") return std::optional<CandidateMode>(CandidateMode::launcher);
  return make_error(ErrorCode::invalid_argument,
                    fmt::format("--mode: expected kernel, launcher or auto, got '{}'", text));
}

}  // namespace

Result<CompileCheckOptions> compile_check_options(CompileOnlyFlags const& flags, TaskSpec const& task) {
  CompileCheckOptions options;
  auto mode = mode_from(flags.mode);
  if (!mode) return mode.error();
  options.mode = *mode;
  if (!flags.arch.empty()) {
    if (auto status = check_arch(flags.arch); !status) return status.error();
    options.compile.arch = flags.arch;
  }
  for (auto const& gencode : flags.gencode) {
    if (auto status = check_gencode(gencode); !status) return status.error();
  }
  options.compile.gencode = flags.gencode;
  for (auto const& flag : flags.flags) {
    if (auto status = check_flag(flag); !status) return status.error();
  }
  options.compile.extra_flags = flags.flags;
  if (!flags.sizes.empty()) {
    auto sizes = parse_size_list(flags.sizes);
    if (!sizes) return sizes.error();
    std::vector<std::string> known;
    for (auto const& size : task.sizes) known.push_back(size.name);
    if (auto status = check_size_names(*sizes, known, task.name); !status) return status.error();
    options.sizes = std::move(*sizes);
  }
  return options;
}

void print_compile_check(CompileCheckReport const& report, bool json, Console const& console) {
  if (json) {
    console.out << json_text(to_json(report)) << '\n';
  } else {
    console.out << render_compile_check(report, console.verbose);
  }
}

}  // namespace kopt::cli
