// PyTorch problems turned into task folders for `kopt bench --torch`: each imported with kopt_torch's
// importer (kopt/torch_import.hpp) or reused when its folder is newer than the problem; a failure is kept as
// the task's import_error, never an abort.
#include <fmt/format.h>

#include "kopt/suite_bench.hpp"
#include "kopt/torch_import.hpp"

namespace kopt {
namespace {

namespace fs = std::filesystem;

// The folder was written by an import of this problem after its last change.
bool up_to_date(fs::path const& task_dir, fs::path const& problem) {
  std::error_code ec;
  fs::path const toml = task_dir / "task.toml";
  if (!fs::exists(toml, ec) || !fs::exists(task_dir / "torch_abi.json", ec)) return false;
  auto const written = fs::last_write_time(toml, ec);
  if (ec) return false;
  auto const changed = fs::last_write_time(problem, ec);
  return !ec && written > changed;
}

}  // namespace

std::vector<SuiteTask> import_torch_tasks(
    std::vector<SuiteTask> const& problems, TorchTaskImport const& request,
    std::function<void(std::size_t, SuiteTask const&)> const& progress) {
  std::vector<SuiteTask> tasks;
  tasks.reserve(problems.size());
  for (std::size_t i = 0; i < problems.size(); ++i) {
    SuiteTask task = problems[i];
    if (progress) progress(i + 1, task);
    fs::path const dir = request.tasks_root / (task.id + "_" + request.precision);
    if (!request.force && up_to_date(dir, task.dir)) {
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
