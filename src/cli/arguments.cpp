#include "cli/arguments.hpp"

#include "cli/option_checks.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <ostream>
#include <string_view>
#include <vector>

#include "cli/command_registry.hpp"
#include "cli/completion.hpp"
#include "cli/error_output.hpp"
#include "cli/exit_code.hpp"
#include "cli/help_text.hpp"
#include "cli/isolation_option.hpp"
#include "cli/usage_guide.hpp"

#ifndef KOPT_VERSION
#define KOPT_VERSION "0.0.0"
#endif

namespace kopt::cli {

void define_init_command(CLI::App& app, CliArguments& args) {
  auto* init = app.add_subcommand("init", help::init_description());
  init->footer(help::init_footer());
  init->add_option("launcher", args.init.launcher, "CUDA source with an extern \"C\" launcher")->required();
  init->add_option("-o,--out", args.init.out_dir, "task folder to create (default: ./<launcher name>)");
  init->add_flag("--force", args.init.force, "overwrite an existing task.toml and reference.cu");
}

void define_task_check_command(CLI::App& app, CliArguments& args) {
  // The group, then its command: `kopt task` alone is a usage error that names check.
  auto* task = app.add_subcommand("task", help::task_description());
  task->require_subcommand(1);
  auto* check = task->add_subcommand("check", help::task_check_description());
  check->footer(help::task_check_footer());
  auto& a = args.task_check;
  check->add_option("task-dir", a.task_dir, "task folder (or its task.toml)")->required();
  check->add_flag("--json", a.json,
                  "print a kopt.task_check/1 JSON document instead of a table (kopt.compile_check/1 when "
                  "only compiled)");
  auto* seed = check->add_option("--seed", a.seed,
                                 "seed for input generation (default: drawn at random, then printed)");
  auto* device =
      check->add_option("--device", a.device, "CUDA device index")->check(whole_number_at_least(0));
  auto* compile_only = check->add_flag(
      "--compile-only", a.compile_only,
      "validate the spec and compile the reference and baseline (resources, occupancy); needs no GPU");
  check->add_option("--arch", a.arch, "with --compile-only: architecture to compile for (default sm_90)")
      ->needs(compile_only);
  compile_only->excludes(seed)->excludes(device);
}

void define_eval_command(CLI::App& app, CliArguments& args) {
  auto* eval = app.add_subcommand("eval", help::eval_description());
  eval->footer(help::eval_footer());
  auto& a = args.eval;
  eval->add_option("task-dir", a.task_dir, "task folder (or its task.toml)")->required();
  eval->add_option("candidates", a.candidates, "candidate sources (.cu)")->required();
  eval->add_flag("--json", a.json, "print a kopt.eval/1 JSON document instead of tables (no progress)");
  eval->add_option("--out", a.out, "also write the JSON report to this file");
  eval->add_option("--mode", a.mode, "candidate kind; auto detects it from each source")
      ->check(CLI::IsMember({"kernel", "launcher", "auto"}));
  auto* tier =
      eval->add_option("--tier", a.tier, "timing protocol: screen (fast, for search) or confirm (full)")
          ->check(CLI::IsMember({"screen", "confirm"}));
  auto* seed = eval->add_option("--seed", a.seed,
                                "seed for input generation (default: drawn at random, then reported)");
  eval->add_option("--sizes", a.sizes, "only these size cases, comma separated (default: all)");
  auto* sanitize = eval->add_flag("--sanitize", a.sanitize,
                                  "also run one trial under compute-sanitizer memcheck and racecheck");
  auto* no_baseline =
      eval->add_flag("--no-baseline", a.no_baseline, "do not time the task's vendor baseline");
  eval->add_option(
      "--arch", a.arch,
      "GPU architecture to compile for, e.g. sm_90 (default: the GPU's; sm_90 with --compile-only)");
  eval->add_option("--gencode", a.gencode, "extra nvcc -gencode value (launcher mode); repeatable")
      ->allow_extra_args(false);
  eval->add_option("--flag", a.flags, "extra compiler flag, written --flag=-X; repeatable")
      ->allow_extra_args(false);
  auto* device = eval->add_option("--device", a.device, "CUDA device index")->check(whole_number_at_least(0));
  auto* timeout_floor = eval->add_option("--timeout-floor-ms", a.timeout_floor_ms,
                                         "shortest watchdog deadline per call (default 2000)")
                            ->check(number_above(0));
  auto* timeout_ceiling = eval->add_option("--timeout-ceiling-ms", a.timeout_ceiling_ms,
                                           "longest watchdog deadline per call (default 60000)")
                              ->check(number_above(0));
  auto* compile_only = eval->add_flag(
      "--compile-only", a.compile_only,
      "only compile the reference and candidates: errors, registers, spills, shared memory, occupancy, "
      "static findings (no GPU needed; --arch default sm_90)");
  add_require_isolation_flag(*eval, args.global.require_isolation);
  for (auto* gpu_only : {tier, seed, sanitize, no_baseline, device, timeout_floor, timeout_ceiling})
    compile_only->excludes(gpu_only);
}

void define_doctor_command(CLI::App& app, CliArguments& args) {
  auto* doctor = app.add_subcommand("doctor", help::doctor_description());
  doctor->footer(help::doctor_footer());
  doctor->add_flag("--json", args.doctor.json, "print a kopt.doctor/1 JSON document instead of a table");
  doctor->add_option("--device", args.doctor.device, "CUDA device index")->check(whole_number_at_least(0));
  add_require_isolation_flag(*doctor, args.global.require_isolation);
}

void define_completion_command(CLI::App& app, CliArguments& args) {
  auto* completion = app.add_subcommand(
      "completion", "Print a shell completion script for kopt's commands, options and their choices.");
  completion->footer(
      "Examples:\n"
      "  source <(kopt completion bash)                                   # this shell only\n"
      "  kopt completion bash > ~/.local/share/bash-completion/completions/kopt\n"
      "  kopt completion zsh > \"${fpath[1]}/_kopt\"                        # then restart zsh\n"
      "\n"
      "The script is generated from kopt's own command line, so it always matches this kopt.");
  completion->add_option("shell", args.completion.shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));
  // The script describes the whole command line, which is complete by the time the command is parsed.
  completion->callback([&args, &app] {
    args.completion.script = args.completion.shell == "zsh" ? zsh_completion(app) : bash_completion(app);
  });
}

namespace {

void print_help(std::ostream& out, std::string const& text) {
  out << text;
  if (text.empty() || text.back() != '\n') out << '\n';
}

// The words of the subcommands that parsed, outermost first: "task check".
std::string chosen_command_path(CLI::App const& app) {
  std::string path;
  CLI::App const* level = &app;
  while (!level->get_subcommands().empty()) {
    level = level->get_subcommands().front();
    path += (path.empty() ? "" : " ") + level->get_name();
  }
  return path;
}

}  // namespace

bool wants_json(int argc, char const* const* argv) {
  return std::any_of(argv + 1, argv + argc,
                     [](char const* arg) { return std::string_view(arg) == "--json"; });
}

ParsedCommandLine parse_command_line(int argc, char const* const* argv, std::ostream& out, std::ostream& err,
                                     std::span<CliCommand const> commands) {
  CliArguments args;
  CLI::App app(help::kopt_description(), "kopt");
  app.footer(help::kopt_footer());
  app.set_version_flag("--version", std::string("kopt ") + KOPT_VERSION);
  app.add_flag("-v,--verbose", args.global.verbose,
               "more detail: options used, seeds, graph timings, resources");
  app.add_flag("--no-color", args.global.no_color, "never colour the output (also: NO_COLOR=1)");
  app.require_subcommand(1);
  app.fallthrough();  // global flags may follow the subcommand
  for (CliCommand const& command : commands) command.define(app, args);

  bool const json = wants_json(argc, argv);
  auto usage_error = [&](std::string const& message, std::string const& hint) {
    report_error(make_error(ErrorCode::invalid_argument, message), ExitCode::usage, json, out, err);
    err << hint;
    return ParsedCommandLine{std::nullopt, to_int(ExitCode::usage)};
  };
  std::vector<std::string> const arguments(argv + std::min(argc, 1), argv + argc);
  auto const asks = [&](std::initializer_list<char const*> flags) {
    return std::any_of(arguments.begin(), arguments.end(), [&](std::string const& a) {
      return std::find(flags.begin(), flags.end(), a) != flags.end();
    });
  };
  auto const words = read_command_words(app, arguments);
  bool const help_or_version = asks({"-h", "--help", "--help-all", "--version"});
  if (words.none && !help_or_version && !words.error) {  // a bare `kopt`: a usage error that teaches
    return usage_error(
        "expected a command",
        "\nUsage: kopt [-v] [--no-color] <command> [options]\n\n" + command_overview(app) +
            "\nRun 'kopt <command> --help' for a command's options and examples, 'kopt --help' "
            "for all of this with the environment and exit codes.\n");
  }
  if (words.error && !(help_or_version && words.known.empty())) {
    return usage_error(*words.error, "Run 'kopt' for the list of commands.\n");
  }

  try {
    app.parse(argc, argv);
  } catch (CLI::ExtrasError const&) {
    return usage_error(explain_unexpected(app, words.known, app.remaining(true)),
                       fmt::format("Run 'kopt {}{}--help' for its options.\n", fmt::join(words.known, " "),
                                   words.known.empty() ? "" : " "));
  } catch (CLI::CallForHelp const&) {
    print_help(out, app.help());
    return {std::nullopt, 0};
  } catch (CLI::CallForAllHelp const&) {
    print_help(out, app.help("", CLI::AppFormatMode::All));
    return {std::nullopt, 0};
  } catch (CLI::CallForVersion const& version) {
    out << version.what() << '\n';
    return {std::nullopt, 0};
  } catch (CLI::ParseError const& error) {
    if (error.get_exit_code() == 0) {  // any other "stop here, all is well" CLI11 may raise
      app.exit(error, out, err);
      return {std::nullopt, 0};
    }
    report_error(make_error(ErrorCode::invalid_argument, error.what()), ExitCode::usage,
                 wants_json(argc, argv), out, err);
    err << "Run 'kopt --help' (or 'kopt <command> --help') for usage.\n";
    return {std::nullopt, to_int(ExitCode::usage)};
  }
  args.command = chosen_command_path(app);
  if (std::ranges::find(commands, std::string_view(args.command), &CliCommand::path) == commands.end()) {
    // A programmer's error: a definition added a subcommand that no entry of the registry names.
    return {std::nullopt, report_error(make_error(ErrorCode::internal_error,
                                                  "'kopt " + args.command + "' is not a registered command"),
                                       ExitCode::internal, json, out, err)};
  }
  for (std::string const& note : args.notes) report_warning(note, err);
  return {std::move(args), 0};
}

}  // namespace kopt::cli
