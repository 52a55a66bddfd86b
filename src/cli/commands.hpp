// The subcommands of `kopt`. Each returns the process exit code (cli/exit_code.hpp).
#pragma once

#include <iosfwd>
#include <string>

#include "cli/arguments.hpp"

namespace kopt {
class Store;
struct OptimizeProgress;
}  // namespace kopt

namespace kopt::cli {

struct Console {
  std::ostream& out;  // reports, JSON
  std::ostream& err;  // errors, progress, --verbose notes
  bool color = false;
  bool verbose = false;
};

int run_init(InitArgs const& args, Console const& console);
int run_import_torch(ImportTorchArgs const& args, Console const& console);
int run_task_check(TaskCheckArgs const& args, Console const& console);
int run_eval(EvalArgs const& args, Console const& console);
int run_doctor(DoctorArgs const& args, Console const& console);
int run_optimize(OptimizeArgs const& args, Console const& console);
int run_runs(RunsArgs const& args, Console const& console);
int run_export(ExportArgs const& args, Console const& console);
int run_report(ReportArgs const& args, Console const& console);
int run_profile(ProfileArgs const& args, Console const& console);
int run_calibrate(CalibrateArgs const& args, Console const& console);
int run_energy(EnergyArgs const& args, Console const& console);
// `kopt optimize TASK` without --from: the built-in proposer (command_optimize_builtin.cpp).
int run_optimize_builtin(OptimizeArgs const& args, Console const& console);
// `kopt optimize TASK --from K --proposer llm|mixed`: LLM edits as MCTS actions (command_optimize_llm.cpp).
int run_optimize_llm(OptimizeArgs const& args, Console const& console);
// One progress line of a search: "[3/24] BLOCK=128;VEC=4: ok 2.31x  best 2.40x (...)".
std::string optimize_progress_line(OptimizeProgress const& p);
int run_strategies(StrategiesArgs const& args, Console const& console);
int run_bench(BenchArgs const& args, Console const& console);
int run_generate(GenerateArgs const& args, Console const& console);
int run_farm_status(FarmStatusArgs const& args, Console const& console);
int run_worker(WorkerArgs const& args, Console const& console);

}  // namespace kopt::cli
