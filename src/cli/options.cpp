#include "cli/options.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace kopt::cli {
namespace {

Error invalid(std::string message) {
  return make_error(ErrorCode::invalid_argument, std::move(message));
}

std::string trim(std::string_view text) {
  auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  auto end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

Result<TimingTier> parse_tier(std::string const& text) {
  auto tier = timing_tier_from_string(text);
  if (!tier) return invalid(fmt::format("--tier: expected screen or confirm, got '{}'", text));
  return *tier;
}

Result<std::optional<CandidateMode>> parse_mode(std::string const& text) {
  if (text == "auto") return std::optional<CandidateMode>();
  if (text == "kernel") return std::optional<CandidateMode>(CandidateMode::kernel);
  if (text == "launcher") return std::optional<CandidateMode>(CandidateMode::launcher);
  return invalid(fmt::format("--mode: expected kernel, launcher or auto, got '{}'", text));
}

// `text` for a message: whole when short, else its start and its length (a value of tens of kilobytes, as
// fuzzing passes, must not become a message of tens of kilobytes).
std::string shown(std::string const& text) {
  constexpr std::size_t kShown = 80;
  if (text.size() <= kShown) return text;
  return text.substr(0, kShown) + fmt::format("... ({} characters)", text.size());
}

// arch=compute_XY[a|f],code=sm_XY | code=[sm_XY,compute_XY,...], read by hand: a regular expression
// (libstdc++'s recurses once per character) overflowed the stack on a value of tens of kilobytes.
bool is_gencode(std::string_view text) {
  auto const take = [&](std::string_view prefix) {
    if (text.substr(0, prefix.size()) != prefix) return false;
    text.remove_prefix(prefix.size());
    return true;
  };
  auto const is_digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!take("arch=compute_")) return false;
  std::size_t digits = 0;
  while (digits < text.size() && is_digit(text[digits])) ++digits;
  if (digits < 2 || digits > 3) return false;
  text.remove_prefix(digits);
  if (!text.empty() && (text.front() == 'a' || text.front() == 'f')) text.remove_prefix(1);
  if (!take(",code=")) return false;
  if (take("[")) {
    if (text.empty() || text.back() != ']') return false;
    text.remove_suffix(1);
  }
  return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
    return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == ',';
  });
}

}  // namespace

Result<std::optional<std::uint64_t>> parse_seed(std::string const& text) {
  if (text.empty()) return std::optional<std::uint64_t>();
  std::uint64_t value = 0;
  auto const* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  bool digits_only =
      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!digits_only || ec != std::errc() || ptr != end) {
    return invalid(fmt::format("--seed: expected an integer from 0 to 18446744073709551615, got '{}'", text));
  }
  return std::optional<std::uint64_t>(value);
}

Result<std::vector<std::string>> parse_size_list(std::string const& text) {
  std::vector<std::string> names;
  if (trim(text).empty())
    return invalid("--sizes: expected size case names separated by commas, got nothing");
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string name = trim(std::string_view(text).substr(start, comma - start));
    if (name.empty()) return invalid(fmt::format("--sizes: empty size name in '{}'", text));
    if (std::any_of(name.begin(), name.end(), [](unsigned char c) { return std::isspace(c) != 0; })) {
      return invalid(fmt::format("--sizes: size name '{}' contains a blank", name));
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return invalid(fmt::format("--sizes: size '{}' is listed twice", name));
    }
    names.push_back(std::move(name));
    start = comma + 1;
  }
  return names;
}

Status check_size_names(std::vector<std::string> const& requested, std::vector<std::string> const& known,
                        std::string const& task_name) {
  for (auto const& name : requested) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return invalid(fmt::format("--sizes: task '{}' has no size case '{}'; it has: {}", task_name, name,
                                 fmt::join(known, ", ")));
    }
  }
  return Ok{};
}

Status check_arch(std::string const& arch) {
  static RE2 const kArch("sm_[0-9]{2,3}[af]?", RE2::Latin1);
  if (arch.size() > 8 || !RE2::FullMatch(arch, kArch)) {  // short: the regex never sees a long value
    return invalid(
        fmt::format("--arch: expected a GPU architecture such as sm_90 or sm_90a, got '{}'", shown(arch)));
  }
  return Ok{};
}

Status check_flag(std::string const& flag) {
  if (flag.empty() || flag.front() != '-') {
    return invalid(
        fmt::format("--flag: expected a compiler flag starting with '-' (write --flag=-X), got '{}'", flag));
  }
  if (std::any_of(flag.begin(), flag.end(), [](unsigned char c) { return c == '\n' || c == '\0'; })) {
    return invalid("--flag: a flag may not contain a line break");
  }
  return Ok{};
}

Status check_gencode(std::string const& gencode) {
  if (!is_gencode(gencode)) {
    return invalid(
        fmt::format("--gencode: expected arch=compute_XY,code=sm_XY (or code=[sm_XY,compute_XY]), got '{}'",
                    shown(gencode)));
  }
  return Ok{};
}

Status check_output_path(std::filesystem::path const& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ErrorCode::io_error,
                      fmt::format("--out: '{}' is a folder; expected a file name", path.string()));
  }
  std::filesystem::path parent = path.parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
    return make_error(ErrorCode::io_error, fmt::format("--out: folder '{}' does not exist (for '{}')",
                                                       parent.string(), path.string()));
  }
  return Ok{};
}

std::filesystem::path worker_path_from_env(char const* value) {
  if (value == nullptr) return {};
  return std::filesystem::path(value);
}

EvalOptions search_eval_options(std::uint64_t seed, int device, std::string const& arch) {
  EvalOptions eval;
  eval.tier = TimingTier::screen;
  eval.seed = seed;
  eval.device = device;
  eval.compile.arch = arch;
  eval.worker_path = worker_path_from_env(std::getenv("KOPT_WORKER"));
  return eval;
}

int arch_number(std::string const& arch) {
  if (arch.rfind("sm_", 0) != 0) return 0;
  int value = 0;
  for (std::size_t i = 3; i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i])) != 0; ++i) {
    value = value * 10 + (arch[i] - '0');
  }
  return value;
}

Result<EvalOptions> eval_options_from(EvalArgs const& args, std::filesystem::path const& worker_path) {
  EvalOptions options;
  auto tier = parse_tier(args.tier);
  if (!tier) return tier.error();
  options.tier = *tier;
  auto mode = parse_mode(args.mode);
  if (!mode) return mode.error();
  options.mode = *mode;
  auto seed = parse_seed(args.seed);
  if (!seed) return seed.error();
  options.seed = *seed;
  if (args.device < 0) return invalid(fmt::format("--device: expected an index >= 0, got {}", args.device));
  options.device = args.device;
  options.sanitize = args.sanitize;
  options.time_baseline = !args.no_baseline;
  if (!args.sizes.empty()) {
    auto sizes = parse_size_list(args.sizes);
    if (!sizes) return sizes.error();
    options.sizes = std::move(*sizes);
  }
  if (!args.arch.empty()) {
    if (auto status = check_arch(args.arch); !status) return status.error();
    options.compile.arch = args.arch;
  }
  for (auto const& gencode : args.gencode) {
    if (auto status = check_gencode(gencode); !status) return status.error();
  }
  options.compile.gencode = args.gencode;
  for (auto const& flag : args.flags) {
    if (auto status = check_flag(flag); !status) return status.error();
  }
  options.compile.extra_flags = args.flags;
  if (args.timeout_floor_ms) options.timeout_floor_ms = *args.timeout_floor_ms;
  if (args.timeout_ceiling_ms) options.timeout_ceiling_ms = *args.timeout_ceiling_ms;
  if (!(options.timeout_floor_ms > 0.0) || !(options.timeout_ceiling_ms > 0.0)) {
    return invalid("--timeout-floor-ms and --timeout-ceiling-ms: expected positive numbers of milliseconds");
  }
  if (options.timeout_floor_ms > options.timeout_ceiling_ms) {
    return invalid(fmt::format("--timeout-floor-ms ({} ms) is above --timeout-ceiling-ms ({} ms)",
                               options.timeout_floor_ms, options.timeout_ceiling_ms));
  }
  if (!args.out.empty()) {
    if (auto status = check_output_path(args.out); !status) return status.error();
  }
  options.worker_path = worker_path;
  return options;
}

Result<EvalOptions> task_check_options_from(TaskCheckArgs const& args,
                                            std::filesystem::path const& worker_path) {
  EvalOptions options;
  auto seed = parse_seed(args.seed);
  if (!seed) return seed.error();
  options.seed = *seed;
  if (args.device < 0) return invalid(fmt::format("--device: expected an index >= 0, got {}", args.device));
  options.device = args.device;
  options.worker_path = worker_path;
  return options;
}

}  // namespace kopt::cli
