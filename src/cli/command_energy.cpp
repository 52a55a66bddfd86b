// `kopt energy TASK CANDIDATE`: joules per call of a candidate and of the task's reference.
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/exit_code.hpp"
#include "cli/options.hpp"
#include "cli/single_candidate.hpp"
#include "kopt/eval.hpp"
#include "kopt/json_values.hpp"
#include "kopt/report.hpp"

namespace kopt::cli {

int run_energy(EnergyArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ErrorOrigin origin) {
    return report_error(error, exit_code_for(error.code, origin), args.json, console.out, console.err);
  };
  SingleCandidateFailure failure{};
  auto opened = open_single_candidate(args.task_dir, args.candidate, args.device, failure);
  if (!opened) return fail(failure.error, failure.origin);
  for (std::string const& note : opened->notes) console.err << note << '\n';
  EnergyOptions energy_options;
  energy_options.size = args.size;
  energy_options.window_s = args.window_s;
  energy_options.cooldown_s = args.cooldown_s;
  energy_options.trials = args.trials;
  energy_options.reference = !args.no_reference;
  if (!args.json) {
    double const subjects = energy_options.reference ? 2.0 : 1.0;
    console.err << "measuring energy (about "
                << static_cast<int>(subjects * args.trials * (args.window_s + args.cooldown_s) + 2.0)
                << " s)...\n";
  }
  auto report = opened->evaluator->measure_energy(opened->task, opened->candidate, energy_options);
  if (!report) {
    ErrorOrigin const origin =
        report.error().code == ErrorCode::invalid_argument ? ErrorOrigin::input : ErrorOrigin::environment;
    return fail(report.error(), origin);
  }
  if (args.json) {
    console.out << json_text(to_json(*report)) << '\n';
  } else {
    console.out << render_energy(*report, RenderOptions{console.color, console.verbose});
  }
  return to_int(report->status == CandidateStatus::ok ? ExitCode::success : ExitCode::rejected);
}

}  // namespace kopt::cli
