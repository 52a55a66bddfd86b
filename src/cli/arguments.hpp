// The command line of `kopt`: what each subcommand accepts, parsed by CLI11 into plain structs. Values
// are checked here only for shape (numbers, choices); options.hpp turns them into EvalOptions.
#pragma once

#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/calibrate_arguments.hpp"
#include "cli/config_arguments.hpp"
#include "cli/energy_arguments.hpp"
#include "cli/farm_arguments.hpp"
#include "cli/generate_arguments.hpp"
#include "cli/import_torch_arguments.hpp"
#include "cli/optimize_arguments.hpp"
#include "cli/profile_arguments.hpp"
#include "cli/report_arguments.hpp"
#include "cli/strategies_arguments.hpp"
#include "cli/worker_arguments.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace kopt::cli {

struct CliCommand;

struct GlobalArgs {
  bool verbose = false;
  bool no_color = false;
  bool require_isolation = false;  // --require-isolation (eval, optimize, bench, generate, doctor)
};

struct InitArgs {
  std::string launcher;
  std::string out_dir;  // empty: ./<launcher stem>
  bool force = false;
};

struct TaskCheckArgs {
  std::string task_dir;
  bool json = false;
  std::string seed;  // empty: drawn by kopt
  int device = 0;
  bool compile_only = false;  // validate and compile the reference and baseline only: no GPU
  std::string arch;           // compile-only target (empty: sm_90)
};

struct EvalArgs {
  std::string task_dir;
  std::vector<std::string> candidates;
  bool json = false;
  std::string out;  // also write the JSON report here
  std::string mode = "auto";
  std::string tier = "confirm";
  std::string seed;
  std::string sizes;  // "a,b"
  bool sanitize = false;
  bool no_baseline = false;
  std::string arch;
  std::vector<std::string> gencode;
  std::vector<std::string> flags;
  int device = 0;
  std::optional<double> timeout_floor_ms;
  std::optional<double> timeout_ceiling_ms;
  bool compile_only = false;  // compile and report resources only: no GPU, nothing run
};

struct CompletionArgs {
  std::string shell;   // bash or zsh
  std::string script;  // generated while parsing, from the command line's own definition
};

struct DoctorArgs {
  bool json = false;
  int device = 0;
};

struct CliArguments {
  GlobalArgs global;
  // The chosen command's path in the registry (command_registry.hpp): "eval", "task check".
  std::string command;
  InitArgs init;
  ImportTorchArgs import_torch;
  TaskCheckArgs task_check;
  EvalArgs eval;
  DoctorArgs doctor;
  OptimizeArgs optimize;
  RunsArgs runs;
  ExportArgs export_run;
  ReportArgs report;
  ProfileArgs profile;
  CalibrateArgs calibrate;
  EnergyArgs energy;
  StrategiesArgs strategies;
  BenchArgs bench;
  GenerateArgs generate;
  FarmStatusArgs farm_status;
  WorkerArgs worker;
  ConfigArgs config;
  CompletionArgs completion;
  // One-line notes for stderr once the command line parsed (a deprecated spelling was used).
  std::vector<std::string> notes;
};

// Either arguments to run with, or an exit code to end with at once (help or version printed: 0; a usage
// error already reported: 2).
struct ParsedCommandLine {
  std::optional<CliArguments> arguments;
  int exit_code = 0;
};

// Whether --json is among the arguments (for reporting errors as JSON even when parsing failed).
bool wants_json(int argc, char const* const* argv);

// Parses argv against `commands` (cli_commands(): every command of kopt). Help and version text go to
// `out`; usage errors are reported as "kopt: error: ..." on `err` (and as a JSON error on `out` when --json
// was on the command line).
ParsedCommandLine parse_command_line(int argc, char const* const* argv, std::ostream& out, std::ostream& err,
                                     std::span<CliCommand const> commands);

// The definitions of the commands whose arguments are declared above (arguments.cpp).
void define_init_command(CLI::App& app, CliArguments& args);
void define_task_check_command(CLI::App& app, CliArguments& args);
void define_eval_command(CLI::App& app, CliArguments& args);
void define_doctor_command(CLI::App& app, CliArguments& args);
void define_completion_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
