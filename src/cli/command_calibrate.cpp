// `kopt calibrate`: measure and cache this GPU's ceilings.
#include <fmt/format.h>

#include <cstdlib>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/exit_code.hpp"
#include "cli/options.hpp"
#include "kopt/eval.hpp"

namespace kopt::cli {

int run_calibrate(CalibrateArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::environment), args.json, console.out,
                        console.err);
  };
  EvalOptions options;
  options.device = args.device;
  options.worker_path = worker_path_from_env(std::getenv("KOPT_WORKER"));
  auto evaluator = Evaluator::create(options);
  if (!evaluator) return fail(evaluator.error());
  DeviceInfo const computed = (*evaluator)->device();
  if (!args.json) console.err << "measuring (a few seconds)...\n";
  auto c = (*evaluator)->calibrate();
  if (!c) return fail(c.error());
  bool const complete = c->dram_bytes_per_s > 0 && c->fp32_flops_per_s > 0 &&
                        c->bf16_tensor_flops_per_s > 0 && c->fp16_tensor_flops_per_s > 0;
  if (args.json) {
    console.out << calibration_document(*c) << '\n';
  } else {
    console.out << fmt::format("device     {} (driver {})\n\n", c->device_name, c->driver_version);
    console.out << fmt::format("{:<34} {:>14} {:>22}\n", "ceiling", "measured", "computed from clocks");
    console.out << fmt::format("{:<34} {:>11.2f} TB/s {:>22}\n", "DRAM (device copy, read + write)",
                               c->dram_bytes_per_s / 1e12, "-");
    console.out << fmt::format("{:<34} {:>8.1f} TFLOP/s {:>14.1f} TFLOP/s\n", "FP32 FMA",
                               c->fp32_flops_per_s / 1e12, computed.ceilings.fp32_flops_per_s / 1e12);
    console.out << fmt::format("{:<34} {:>8.1f} TFLOP/s {:>14.1f} TFLOP/s\n",
                               "BF16 tensor (cuBLAS, FP32 acc.)", c->bf16_tensor_flops_per_s / 1e12,
                               computed.ceilings.tensor_flops_per_s / 1e12);
    console.out << fmt::format("{:<34} {:>8.1f} TFLOP/s {:>14.1f} TFLOP/s\n",
                               "FP16 tensor (cuBLAS, FP32 acc.)", c->fp16_tensor_flops_per_s / 1e12,
                               computed.ceilings.tensor_flops_per_s / 1e12);
    for (auto const& note : c->notes) console.out << "note: " << note << '\n';
    console.out << "\ncached; speed-of-light bounds on this device now use the measured peaks\n";
  }
  return to_int(complete ? ExitCode::success : ExitCode::rejected);
}

}  // namespace kopt::cli
