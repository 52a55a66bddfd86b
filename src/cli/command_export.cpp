// `kopt export RUN_ID -o best.cu [--store PATH]` and `kopt export --session ID -o best.cu`: reads the store,
// creates nothing but the output file. With `--torch` (a task made by `kopt import-torch`), the chosen kernel
// goes through a temporary .cu to the PyTorch bridge (`python -m kopt_torch export`), which writes the
// output: one Python file with the problem's Model, ModelNew and the custom op (docs/pytorch.md).
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "kopt/child_process.hpp"
#include "kopt/compile.hpp"
#include "kopt/optimize.hpp"
#include "kopt/report.hpp"
#include "kopt/runs.hpp"
#include "kopt/store.hpp"
#include "kopt/task.hpp"
#include "kopt/torch_python.hpp"

namespace kopt::cli {
namespace {

constexpr std::chrono::seconds kTorchExportTimeout{120};  // import torch and write one file; no compiling

// A private folder under the system's temporary folder, removed with everything in it when it goes.
class TorchExportFolder {
 public:
  static Result<TorchExportFolder> make() {
    std::error_code ec;
    std::filesystem::path base = std::filesystem::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string pattern = (base / "kopt-export-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      return make_error(ErrorCode::io_error, "cannot create a temporary folder under " + base.string());
    return TorchExportFolder(pattern);
  }
  TorchExportFolder(TorchExportFolder&& other) noexcept : path_(std::move(other.path_)) {
    other.path_.clear();
  }
  TorchExportFolder& operator=(TorchExportFolder&&) = delete;
  TorchExportFolder(TorchExportFolder const&) = delete;
  TorchExportFolder& operator=(TorchExportFolder const&) = delete;
  ~TorchExportFolder() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  std::filesystem::path const& path() const { return path_; }

 private:
  explicit TorchExportFolder(std::filesystem::path path) : path_(std::move(path)) {}
  std::filesystem::path path_;
};

// The last line of what the bridge wrote on stderr, without its "kopt_torch: " prefix.
std::string bridge_message(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (auto const pos = text.rfind('\n'); pos != std::string::npos) text = text.substr(pos + 1);
  if (text.starts_with("kopt_torch: ")) text = text.substr(12);
  return text;
}

int run_export_torch(ExportArgs const& args, Store& store, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), false, console.out, console.err);
  };
  // The run's (or session's) task: it must be a PyTorch task, read before anything is exported.
  std::filesystem::path task_dir;
  std::string const what =
      args.session > 0 ? fmt::format("session {}", args.session) : fmt::format("run {}", args.run);
  if (args.session > 0) {
    auto session = store.load_session(SessionId(args.session));
    if (!session) return fail(session.error(), ErrorOrigin::input);
    task_dir = session->session.task_dir;
  } else {
    auto info = load_run_info(store, RunId(args.run));
    if (!info) return fail(info.error(), ErrorOrigin::input);
    task_dir = info->task_dir;
  }
  auto task = load_task(task_dir);
  if (!task) {
    return fail(
        make_error(ErrorCode::invalid_spec, fmt::format("--torch: the task of {} ({}) cannot be read: {}",
                                                        what, task_dir.string(), task.error().message)),
        ErrorOrigin::input);
  }
  if (!task->reference.is_torch()) {
    return fail(
        make_error(ErrorCode::invalid_argument,
                   fmt::format("--torch: the task of {} ({}, {}) is not a PyTorch task: its reference is the "
                               "CUDA source {}; --torch takes a task made by kopt import-torch (without "
                               "--torch, export writes the kernel's .cu)",
                               what, task->name, task->dir.string(), task->reference.path.string())),
        ErrorOrigin::input);
  }

  auto folder = TorchExportFolder::make();
  if (!folder) return fail(folder.error(), ErrorOrigin::environment);
  std::filesystem::path const kernel = folder->path() / "kernel.cu";
  auto exported = args.session > 0
                      ? export_session_best(store, SessionId(args.session), kernel, args.even_if_slower)
                      : export_best(store, RunId(args.run), kernel, args.even_if_slower);
  if (!exported) return fail(exported.error(), ErrorOrigin::input);
  std::string const from =
      fmt::format("{}run {}, candidate {}", args.session > 0 ? fmt::format("session {}, ", args.session) : "",
                  exported->run.value(), exported->candidate.value());
  if (exported->reference_kept) {
    console.out << fmt::format(
        "nothing written to {}: kopt's best ({}) is slower than the PyTorch reference ({} geomean on the {} "
        "tier), "
        "so the problem's Model is what to keep; --even-if-slower writes a ModelNew from that candidate "
        "anyway\n",
        args.out, from, format_ratio(exported->geomean_speedup), exported->tier);
    return to_int(ExitCode::success);
  }
  auto python = find_torch_python();
  if (!python) return fail(python.error(), ErrorOrigin::environment);
  std::vector<std::string> command = {
      "export", task->dir.string(), kernel.string(), "-o", args.out, "--run-info", from};
  if (!args.torch_name.empty()) command.insert(command.end(), {"--name", args.torch_name});
  // The configuration's knob values: a kernel-mode candidate's macros (and launch geometry) depend on them.
  if (exported->knobs.is_object()) {
    for (auto const& [knob, value] : exported->knobs.items())
      command.insert(
          command.end(),
          {"--define", knob + "=" + (value.is_string() ? value.get<std::string>() : value.dump())});
  }
  ProcessSpec spec = python->command(command);
  spec.stderr_target = StderrTarget::pipe;
  CommunicateOptions options;
  options.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(kTorchExportTimeout);
  auto outcome = run_process(spec, options);
  if (!outcome) return fail(outcome.error(), ErrorOrigin::environment);
  if (!outcome->timed_out && outcome->exit.exited && outcome->exit.code == 2 &&
      bridge_message(outcome->error_tail).starts_with("export is not available")) {
    // kopt_torch's command line cannot import its export module: torch (or the package) is missing there.
    return fail(
        make_error(ErrorCode::worker_error,
                   fmt::format("--torch: the PyTorch bridge's Python ({} from {}) cannot run the export: {}; "
                               "run scripts/setup.sh or set KOPT_PYTHON to a Python with torch",
                               python->python.string(), python->origin, bridge_message(outcome->error_tail))),
        ErrorOrigin::environment);
  }
  if (!outcome->timed_out && outcome->exit.exited && outcome->exit.code == 2) {
    // The task folder, the kernel or an option is wrong: the bridge said what, in one line.
    return fail(make_error(ErrorCode::invalid_spec, "--torch: " + bridge_message(outcome->error_tail)),
                ErrorOrigin::input);
  }
  if (auto status = outcome->status("python -m kopt_torch export"); !status) {
    return fail(make_error(ErrorCode::worker_error,
                           fmt::format("--torch: the PyTorch bridge ({} from {}) failed: {}",
                                       python->python.string(), python->origin, status.error().message)),
                ErrorOrigin::environment);
  }
  console.out << fmt::format("{} ({}), {} geomean on the {} tier, exported to PyTorch:\n", from,
                             exported->knobs.dump(), format_ratio(exported->geomean_speedup), exported->tier);
  console.out << outcome->output;
  if (exported->tier != "confirm")
    console.err << fmt::format(
        "kopt: note: the {} has no confirmed candidate; this one was timed on the screen tier only\n",
        args.session > 0 ? "session" : "run");
  return to_int(ExitCode::success);
}

}  // namespace

int run_export(ExportArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), false, console.out,
                        console.err);
  };
  if ((args.run > 0) == (args.session > 0)) {
    return fail(make_error(ErrorCode::invalid_argument, "export: expected a run id or --session ID"));
  }
  if (!args.torch && !args.torch_name.empty())
    return fail(make_error(ErrorCode::invalid_argument, "--name: names the PyTorch op (expected --torch)"));
  if (auto status = check_output_path(args.out); !status) return fail(status.error());
  auto store = open_store_to_read(args.store);
  if (!store) return fail(store.error());
  if (args.torch) return run_export_torch(args, *store, console);
  auto exported = args.session > 0
                      ? export_session_best(*store, SessionId(args.session), args.out, args.even_if_slower)
                      : export_best(*store, RunId(args.run), args.out, args.even_if_slower);
  if (!exported) return fail(exported.error());
  if (exported->reference_kept) {
    console.out << fmt::format(
        "wrote {}: the reference ({}): kopt's best, candidate {} of run {}, is slower than it ({} geomean on "
        "the {} tier); --even-if-slower writes that candidate instead\n",
        args.out, exported->reference.string(), exported->candidate.value(), exported->run.value(),
        format_ratio(exported->geomean_speedup), exported->tier);
    return to_int(ExitCode::success);
  }
  std::string const from =
      args.session > 0 ? fmt::format("session {}, run {}, ", args.session, exported->run.value()) : "";
  console.out << fmt::format("wrote {}: {}candidate {} ({}), {} geomean on the {} tier\n", args.out, from,
                             exported->candidate.value(), exported->knobs.dump(),
                             format_ratio(exported->geomean_speedup), exported->tier);
  if (exported->tier != "confirm")
    console.err << fmt::format(
        "kopt: note: the {} has no confirmed candidate; this one was timed on the screen tier only\n",
        args.session > 0 ? "session" : "run");
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
