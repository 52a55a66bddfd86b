// The Nsight Compute command line for one profiled launch (flags: shared/notes/profiling.md §1.1-1.2).
#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "kopt/profile.hpp"

namespace kopt {
namespace {

std::string_view to_flag(NcuKernelNameBase base) noexcept {
  switch (base) {
    case NcuKernelNameBase::function: return "function";
    case NcuKernelNameBase::demangled: return "demangled";
    case NcuKernelNameBase::mangled: return "mangled";
  }
  return "function";
}

// Why `name` cannot go into ncu's comma-separated --metrics list; empty when it can.
std::string metric_name_problem(std::string_view name) {
  if (name.empty()) return "is empty";
  for (char const c : name) {
    auto const byte = static_cast<unsigned char>(c);
    if (c == ',') return "contains a comma (--metrics takes a comma-separated list)";
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return "contains whitespace";
    if (byte < 0x20 || byte == 0x7f) return "contains a control character";
  }
  return {};
}

}  // namespace

std::string escape_regex(std::string_view text) {
  static constexpr std::string_view kMeta = R"(\^$.|?*+()[]{})";
  std::string escaped;
  escaped.reserve(text.size());
  for (char const c : text) {
    if (kMeta.find(c) != std::string_view::npos) escaped += '\\';
    escaped += c;
  }
  return escaped;
}

Result<std::vector<std::string>> ncu_arguments(NcuCommand const& command) {
  if (command.ncu_path.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "ncu command: ncu_path is empty; expected the ncu executable");
  }
  if (command.kernel_name.empty() && command.nvtx_include.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "ncu command: kernel_name and nvtx_include are both empty; expected the name of the "
                      "kernel to profile or the NVTX range that holds it");
  }
  if (command.launch_skip < 0) {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("ncu command: launch_skip is {}; expected a launch number >= 0", command.launch_skip));
  }
  if (command.launch_count < 1) {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("ncu command: launch_count is {}; expected at least 1", command.launch_count));
  }
  if (command.metrics.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "ncu command: metrics is empty; expected at least one metric name");
  }
  if (!command.target_argv.empty() && command.target_argv.front().empty()) {
    return make_error(ErrorCode::invalid_argument,
                      "ncu command: target_argv starts with an empty program name");
  }
  std::vector<std::string> metrics;
  for (std::string const& name : command.metrics) {
    if (auto const problem = metric_name_problem(name); !problem.empty()) {
      return make_error(
          ErrorCode::invalid_argument,
          fmt::format("ncu command: metric name '{}' {}; expected an Nsight Compute metric name", name,
                      problem));
    }
    if (std::find(metrics.begin(), metrics.end(), name) == metrics.end()) metrics.push_back(name);
  }

  std::string const base(to_flag(command.kernel_name_base));
  // --clock-control none always: the default, base, locks the clocks.
  std::vector<std::string> argv{command.ncu_path, "--clock-control", "none"};
  // --print-kernel-base too, so that the CSV's "Kernel Name" reads like kernel_name.
  argv.insert(argv.end(), {"--kernel-name-base", base, "--print-kernel-base", base});
  if (!command.kernel_name.empty()) {
    argv.insert(argv.end(), {"--kernel-name", "regex:^" + escape_regex(command.kernel_name) + "$"});
  }
  if (!command.nvtx_include.empty()) {
    argv.insert(argv.end(), {"--nvtx", "--nvtx-include", command.nvtx_include});
  }
  argv.insert(argv.end(), {"--launch-skip", std::to_string(command.launch_skip), "--launch-count",
                           std::to_string(command.launch_count)});
  argv.insert(argv.end(), {"--metrics", fmt::format("{}", fmt::join(metrics, ",")), "--csv", "--page", "raw",
                           "--print-units", "base"});
  if (!command.log_file.empty()) argv.insert(argv.end(), {"--log-file", command.log_file});
  argv.insert(argv.end(), command.target_argv.begin(), command.target_argv.end());
  return argv;
}

}  // namespace kopt
