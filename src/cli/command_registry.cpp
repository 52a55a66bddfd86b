// The registry of kopt's commands: one entry per command, in the order `kopt --help` lists them. An entry
// names the command, its definition (the <name>_arguments.cpp that declares its options) and the
// command_<name>.cpp function that runs it with its own arguments.
#include "cli/command_registry.hpp"

#include <algorithm>
#include <array>
#include <ostream>

#include "cli/arguments.hpp"
#include "cli/commands.hpp"
#include "cli/config_files.hpp"

namespace kopt::cli {
namespace {

// A command run with its own member of CliArguments: run_eval(args.eval, console).
template <auto member, auto run_command>
int run_with(CliArguments const& args, Configuration const& /*configuration*/, Console const& console) {
  return run_command(args.*member, console);
}

int run_config_command(CliArguments const& args, Configuration const& configuration, Console const& console) {
  return run_config(args.config, configuration, console);
}

int print_completion_script(CliArguments const& args, Configuration const& /*configuration*/,
                            Console const& console) {
  console.out << args.completion.script;  // written while parsing, from the command line's own definition
  return 0;
}

using A = CliArguments;
constexpr std::array kCommands = std::to_array<CliCommand>({
    {"init", define_init_command, run_with<&A::init, run_init>},
    {"import-torch", define_import_torch_command, run_with<&A::import_torch, run_import_torch>},
    {"task check", define_task_check_command, run_with<&A::task_check, run_task_check>},
    {"eval", define_eval_command, run_with<&A::eval, run_eval>},
    {"doctor", define_doctor_command, run_with<&A::doctor, run_doctor>},
    {"optimize", define_optimize_command, run_with<&A::optimize, run_optimize>},
    {"runs", define_runs_command, run_with<&A::runs, run_runs>},
    {"export", define_export_command, run_with<&A::export_run, run_export>},
    {"report", define_report_command, run_with<&A::report, run_report>},
    {"profile", define_profile_command, run_with<&A::profile, run_profile>},
    {"calibrate", define_calibrate_command, run_with<&A::calibrate, run_calibrate>},
    {"energy", define_energy_command, run_with<&A::energy, run_energy>},
    {"strategies", define_strategies_command, run_with<&A::strategies, run_strategies>},
    {"bench", define_bench_command, run_with<&A::bench, run_bench>},
    {"generate", define_generate_command, run_with<&A::generate, run_generate>},
    {"worker", define_worker_command, run_with<&A::worker, run_worker>},
    {"farm status", define_farm_status_command, run_with<&A::farm_status, run_farm_status>},
    {"config", define_config_command, run_config_command},
    {"completion", define_completion_command, print_completion_script},
});

}  // namespace

std::span<CliCommand const> cli_commands() noexcept {
  return kCommands;
}

CliCommand const* find_cli_command(std::string_view path) noexcept {
  const auto* const it = std::ranges::find(kCommands, path, &CliCommand::path);
  return it == kCommands.end() ? nullptr : &*it;
}

}  // namespace kopt::cli
