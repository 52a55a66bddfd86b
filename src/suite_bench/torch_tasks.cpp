// PyTorch problems turned into task folders for `kopt bench --torch`: each imported with kopt_torch's
// importer (kopt/torch_import.hpp) or reused when its folder holds an import of the problem's current text; a
// failure is kept as the task's import_error, never an abort.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "kopt/suite_bench.hpp"
#include "kopt/text.hpp"
#include "kopt/torch_import.hpp"

namespace kopt {
namespace {

namespace fs = std::filesystem;

// The folder holds an import of this problem as it is now by the importer as it is now: a task.toml, a
// torch_abi.json recording `importer` (torch_importer_digest) and a copy of the problem (problem.py) with the
// same text. Compared by content, not by modification times, so that folders imported on one machine and
// copied to another (a GPU host) are reused there, and a folder an older importer wrote is not.
bool up_to_date(fs::path const& task_dir, fs::path const& problem, std::string const& importer) {
  std::error_code ec;
  if (importer.empty() || !fs::exists(task_dir / "task.toml", ec)) return false;
  auto const record = read_text_file(task_dir / "torch_abi.json");
  auto const copy = read_text_file(task_dir / "problem.py");
  auto const original = read_text_file(problem);
  if (!record || !copy || !original || *copy != *original) return false;
  auto const abi = nlohmann::json::parse(*record, nullptr, false);
  return abi.is_object() && abi.value("importer", std::string()) == importer;
}

}  // namespace

std::vector<SuiteTask> import_torch_tasks(
    std::vector<SuiteTask> const& problems, TorchTaskImport const& request,
    std::function<void(std::size_t, SuiteTask const&)> const& progress) {
  std::vector<SuiteTask> tasks;
  tasks.reserve(problems.size());
  // The importer that would run now: a folder another version wrote is imported again (none found: no reuse).
  auto const digest = torch_importer_digest();
  std::string const importer = digest ? *digest : std::string();
  for (std::size_t i = 0; i < problems.size(); ++i) {
    SuiteTask task = problems[i];
    if (progress) progress(i + 1, task);
    fs::path const dir = request.tasks_root / (task.id + "_" + request.precision);
    if (!request.force && up_to_date(dir, task.dir, importer)) {
      task.dir = fs::absolute(dir);
      tasks.push_back(std::move(task));
      continue;
    }
    TorchImportOptions options;
    options.precision = request.precision;
    options.force = true;  // the folder is the bench's own: an older import of the problem is replaced
    auto imported = import_torch_problem(task.dir, dir, options);
    if (imported) {
      task.dir = fs::absolute(dir);
    } else {
      task.import_error =
          imported.error().message.empty() ? std::string("the import failed") : imported.error().message;
    }
    tasks.push_back(std::move(task));
  }
  return tasks;
}

}  // namespace kopt
