#include "cli/profile_arguments.hpp"

#include "cli/option_checks.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/arguments.hpp"

namespace kopt::cli {

void define_profile_command(CLI::App& app, CliArguments& args) {
  auto* profile = app.add_subcommand(
      "profile",
      "Why a candidate is slow: runs one call of it under Nsight Compute (clocks left alone), classifies "
      "the\n"
      "bottleneck (memory-, compute-, latency-bound, small grid, launch overhead), then collects only the\n"
      "metrics of the tools that class calls for, and reports findings with their numbers and the\n"
      "strategies likely to help. Reads ptxas's report and the SASS (cuobjdump) too.");
  profile->footer(
      "Examples:\n"
      "  kopt profile examples/vector_add examples/vector_add/candidates/vector_add_float4_kernel.cu\n"
      "  kopt profile examples/sgemm cand.cu --size medium --json > profile.json\n\n"
      "Each ncu run costs about 2 s plus one replay of the kernel per metric pass; stage 1 and stage 2 are\n"
      "two runs. Needs ncu (Nsight Compute) and a GPU whose counters it can read. Exit code 0 when the\n"
      "candidate ran and was analysed, 1 when it failed to compile or run, 2 bad input, 3 no GPU, no ncu or\n"
      "the worker failed. docs/analysis.md explains the classifier and every tool's thresholds.");
  auto& a = args.profile;
  profile->add_option("task-dir", a.task_dir, "task folder (or its task.toml)")->required();
  profile->add_option("candidate", a.candidate, "candidate source (.cu), kernel or launcher mode")
      ->required();
  profile->add_option("--size", a.size, "size case to profile (default: the largest timed one)");
  profile->add_option("--ncu", a.ncu,
                      "the ncu executable (default: on PATH, else /opt/nvidia/nsight-compute)");
  profile->add_flag("--stage1-only", a.stage1_only, "classify only; skip the tools' metrics (one ncu run)");
  profile->add_option("--device", a.device, "CUDA device index")->check(whole_number_at_least(0));
  profile->add_flag("--json", a.json, "print a kopt.profile/1 JSON document");
}

}  // namespace kopt::cli
