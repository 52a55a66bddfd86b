// `kopt doctor [--json] [--device N]`
#include <fmt/format.h>

#include <cstdlib>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "kopt/report.hpp"
#include "kopt/toolchain.hpp"

namespace kopt::cli {

int run_doctor(DoctorArgs const& args, Console const& console) {
  DoctorFindings findings;
  findings.tools = probe_toolchain();
  EvalOptions options;
  options.device = args.device;
  options.worker_path = worker_path_from_env(std::getenv("KOPT_WORKER"));
  auto evaluator = Evaluator::create(options);
  if (evaluator) {
    findings.device = (*evaluator)->device();
    auto const calibration = load_calibration((*evaluator)->calibration_file());
    if (calibration) {
      findings.calibration = fmt::format(
          "measured by `kopt calibrate` at {} (used for speed-of-light bounds)", calibration->measured_at);
    } else if (calibration.error().code == ErrorCode::not_found) {
      findings.calibration = "computed from SM count and clock (`kopt calibrate` measures them)";
    } else {
      findings.calibration = "computed from SM count and clock; the cached calibration is unreadable: " +
                             calibration.error().message;
    }
  } else {
    findings.device_error = evaluator.error().message;
  }
  if (args.json) {
    console.out << to_json(findings).dump(2) << '\n';
  } else {
    console.out << render_doctor(findings, RenderOptions{.color = console.color, .verbose = console.verbose});
  }
  return to_int(doctor_problems(findings).empty() ? ExitCode::success : ExitCode::environment);
}

}  // namespace kopt::cli
