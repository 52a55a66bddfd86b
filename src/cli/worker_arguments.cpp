#include "cli/worker_arguments.hpp"

#include "cli/option_checks.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/arguments.hpp"

namespace kopt::cli {

void define_worker_command(CLI::App& app, CliArguments& args) {
  auto* worker = app.add_subcommand(
      "worker",
      "Serve the evaluation farm with one GPU: take evaluation jobs from the farm's Redis queue, evaluate\n"
      "each candidate in the isolated GPU worker (compile, verify, time, exactly as kopt eval does) and\n"
      "record its result once. Jobs whose worker stopped (killed, host lost) are taken over after the\n"
      "lease; a job that has ended --max-deliveries workers gets a runtime_error verdict instead of\n"
      "another run. SIGTERM or Ctrl-C finishes the running job and stops; a second one stops at once.");
  worker->footer(
      "Examples:\n"
      "  kopt worker --queue redis://gpu-head:6379 --gpu 0          # one per GPU, on every host\n"
      "  KOPT_QUEUE=redis://kopt@gpu-head kopt worker --gpu 3        # password in KOPT_QUEUE_PASSWORD\n"
      "  kopt farm status --queue redis://gpu-head:6379             # what the farm is doing\n\n"
      "Every host must see the task folders at the paths the jobs name (a shared checkout or file system).\n"
      "docs/distributed.md describes the farm. Exit code 0 stopped (signal or --idle-exit), 2 bad\n"
      "arguments or URL, 3 no GPU, or the queue cannot be reached or was lost.");
  auto& a = args.worker;
  add_farm_queue_options(*worker, a.farm);
  worker->add_option("--gpu", a.gpu, "the CUDA device this worker evaluates on")
      ->check(whole_number_at_least(0))
      ->capture_default_str();
  worker->add_option("--name", a.name, "this worker's name in the farm (default: <hostname>:gpu<N>)");
  worker
      ->add_option("--lease", a.lease_s,
                   "seconds a job may go without this worker renewing its lease before another takes it "
                   "over (renewed every lease / 3)")
      ->check(CLI::Range(0.1, 86400.0))
      ->capture_default_str();
  worker
      ->add_option("--max-deliveries", a.max_deliveries,
                   "a job that ended this many workers gets a runtime_error verdict instead of another run")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  worker->add_option("--idle-exit", a.idle_exit_s, "stop after this many seconds without a job")
      ->check(CLI::Range(0.0, 1e9));
  worker->add_flag("--json", a.json, "print a kopt.farm_worker/1 summary when the worker stops");
}

}  // namespace kopt::cli
