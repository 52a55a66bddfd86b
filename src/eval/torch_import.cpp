#include "kopt/torch_import.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <vector>

#include "kopt/child_process.hpp"
#include "kopt/sha256.hpp"
#include "kopt/text.hpp"
#include "kopt/torch_python.hpp"

namespace kopt {

namespace {

// What the importer refuses before it reads the problem (kopt_torch/importer.py, _import_problem, with the
// same messages), checked here so that a wrong path or option is answered at once, not after Python has
// started and imported torch (seconds).
Status check_import_arguments(std::filesystem::path const& problem, std::filesystem::path const& out_dir,
                              TorchImportOptions const& options) {
  if (options.precision != "fp32" && options.precision != "bf16")
    return make_error(ErrorCode::invalid_spec,
                      fmt::format("--precision {}: expected fp32 or bf16", options.precision));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(problem, ec))
    return make_error(ErrorCode::invalid_spec, fmt::format("{}: no such problem file", problem.string()));
  if (std::filesystem::exists(out_dir, ec) && !std::filesystem::is_directory(out_dir, ec))
    return make_error(ErrorCode::invalid_spec,
                      fmt::format("{}: exists and is not a folder", out_dir.string()));
  if (std::filesystem::is_directory(out_dir, ec) && !std::filesystem::is_empty(out_dir, ec) &&
      !options.force) {
    return make_error(
        ErrorCode::invalid_spec,
        fmt::format("{}: folder exists and is not empty; pass --force to overwrite", out_dir.string()));
  }
  bool const family_ok = std::all_of(options.family.begin(), options.family.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-';
  });
  if (!family_ok) {
    return make_error(ErrorCode::invalid_spec,
                      fmt::format("--family '{}': expected letters, digits, _ . - only", options.family));
  }
  return Ok{};
}

}  // namespace

Result<TorchImport> import_torch_problem(std::filesystem::path const& problem,
                                         std::filesystem::path const& out_dir,
                                         TorchImportOptions const& options) {
  if (auto status = check_import_arguments(problem, out_dir, options); !status) return status.error();
  auto python = find_torch_python();
  if (!python) return python.error();
  std::vector<std::string> command = {"import",         problem.string(), "-o",
                                      out_dir.string(), "--precision",    options.precision};
  if (!options.name.empty()) command.insert(command.end(), {"--name", options.name});
  if (!options.family.empty()) command.insert(command.end(), {"--family", options.family});
  if (options.force) command.emplace_back("--force");
  ProcessSpec spec = python->command(command);
  spec.stderr_target = StderrTarget::pipe;
  CommunicateOptions communicate;
  communicate.timeout = std::chrono::minutes(10);
  auto outcome = run_process(spec, communicate);
  if (!outcome) return outcome.error();
  if (outcome->exit.exited && outcome->exit.code == 2 && !outcome->timed_out) {
    // The problem or an option is wrong: the importer said what in its last line.
    std::string message = outcome->error_tail;
    while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
    if (auto pos = message.rfind('\n'); pos != std::string::npos) message = message.substr(pos + 1);
    if (message.starts_with("kopt_torch: ")) message = message.substr(12);
    return make_error(ErrorCode::invalid_spec, message);
  }
  if (auto status = outcome->status("python -m kopt_torch import"); !status) {
    return make_error(ErrorCode::worker_error,
                      fmt::format("the importer ({} from {}) failed: {}", python->python.string(),
                                  python->origin, status.error().message));
  }
  auto summary = nlohmann::json::parse(outcome->output, nullptr, false);
  if (summary.is_discarded() || !summary.is_object())
    return make_error(ErrorCode::worker_error, "the importer printed no kopt.torch_import/1 summary");
  auto task = load_task(out_dir);
  if (!task) {
    return make_error(ErrorCode::invalid_spec,
                      "the importer wrote a task kopt cannot load (a bug: please report it with " +
                          problem.string() + "):\n" + task.error().message);
  }
  return TorchImport{std::move(*task), std::move(summary)};
}

Result<std::string> torch_importer_digest() {
  auto root = find_torch_package();
  if (!root) return root.error();
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (auto const& entry : std::filesystem::directory_iterator(*root / "kopt_torch", ec)) {
    if (entry.is_regular_file(ec) && entry.path().extension() == ".py") files.push_back(entry.path());
  }
  if (ec) return make_error(ErrorCode::io_error, (*root / "kopt_torch").string() + ": " + ec.message());
  std::sort(files.begin(), files.end(),
            [](auto const& a, auto const& b) { return a.filename().string() < b.filename().string(); });
  std::string bytes;
  for (auto const& file : files) {
    auto text = read_text_file(file);
    if (!text) return make_error(ErrorCode::io_error, "cannot read " + file.string());
    bytes += file.filename().string();
    bytes += '\0';
    bytes += *text;
    bytes += '\0';
  }
  return sha256_hex(bytes);
}

}  // namespace kopt
