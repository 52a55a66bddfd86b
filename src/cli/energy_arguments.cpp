#include "cli/energy_arguments.hpp"

#include "cli/option_checks.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/arguments.hpp"

namespace kopt::cli {

void define_energy_command(CLI::App& app, CliArguments& args) {
  auto* energy = app.add_subcommand(
      "energy",
      "Joules per call: runs the candidate back to back (N calls replayed from a CUDA graph, N sized so\n"
      "that a window lasts at least --window seconds) and reads NVML's energy counter before and after\n"
      "each window, with --cooldown seconds idle before each one. Reports J/call (median and range over\n"
      "--trials windows), average and idle power, SM and memory clocks and temperature, and the same for\n"
      "the task's reference with the candidate/reference ratio. Inputs are trial 0's; the candidate is\n"
      "not verified here (run kopt eval for that).");
  energy->footer(
      "Examples:\n"
      "  kopt energy examples/vector_add examples/vector_add/candidates/vector_add_float4_kernel.cu\n"
      "  kopt energy examples/sgemm cand.cu --size medium --window 4 --trials 5 --json > energy.json\n\n"
      "NVML's counter updates about every 100 ms, so windows shorter than about 2 s read mostly noise.\n"
      "Takes about trials x 2 x (window + cooldown) seconds. Needs the NVIDIA driver's libnvidia-ml.so.1.\n"
      "Exit code 0 when the candidate was measured, 1 when it failed to compile or run, 2 bad input,\n"
      "3 no GPU, no NVML energy counter or the worker failed. docs/analysis.md, \"Energy\", explains it.");
  auto& a = args.energy;
  energy->add_option("task-dir", a.task_dir, "task folder (or its task.toml)")->required();
  energy->add_option("candidate", a.candidate, "candidate source (.cu), kernel or launcher mode")->required();
  energy->add_option("--size", a.size, "size case to run (default: the largest timed one)");
  energy->add_option("--window", a.window_s, "seconds each measured window lasts at least (default 2)")
      ->check(number_between(0.1, 600.0));
  energy->add_option("--cooldown", a.cooldown_s, "idle seconds before every window (default 1)")
      ->check(number_between(0.0, 600.0));
  energy->add_option("--trials", a.trials, "windows per subject (default 3)")
      ->check(whole_number_between(1, 100));
  energy->add_flag("--no-reference", a.no_reference, "do not measure the task's reference (no ratio)");
  energy->add_option("--device", a.device, "CUDA device index")->check(whole_number_at_least(0));
  energy->add_flag("--json", a.json, "print a kopt.energy/1 JSON document");
}

}  // namespace kopt::cli
