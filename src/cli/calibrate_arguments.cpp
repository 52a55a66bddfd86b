#include "cli/calibrate_arguments.hpp"

#include "cli/option_checks.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/arguments.hpp"

namespace kopt::cli {

void define_calibrate_command(CLI::App& app, CliArguments& args) {
  auto* calibrate = app.add_subcommand(
      "calibrate",
      "Measure this GPU's ceilings once: device-to-device copy bandwidth, FP32 FMA throughput, and dense\n"
      "BF16 and FP16 tensor-core throughput (cuBLAS GEMM 8192^3, FP32 accumulation). Clocks are left as\n"
      "found. The result is cached per device and driver; speed-of-light bounds and % of roofline then\n"
      "use the measured peaks instead of the ones computed from the SM count and clock.");
  calibrate->footer(
      "Examples:\n"
      "  kopt calibrate           # a few seconds (1.6 s on an H200)\n"
      "  kopt calibrate --json    # a kopt.calibration/1 document\n\n"
      "Exit code 0 when every ceiling was measured, 1 when one could not be (see notes), 3 no GPU.");
  auto& a = args.calibrate;
  calibrate->add_option("--device", a.device, "CUDA device index")->check(whole_number_at_least(0));
  calibrate->add_flag("--json", a.json, "print a kopt.calibration/1 JSON document");
}

}  // namespace kopt::cli
