#include "cli/farm_arguments.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/arguments.hpp"

namespace kopt::cli {

void define_farm_status_command(CLI::App& app, CliArguments& args) {
  // The group, then its command: `kopt farm` alone is a usage error that names status.
  auto* farm = app.add_subcommand(
      "farm",
      "The evaluation farm: GPU workers on any number of hosts sharing a Redis queue of evaluation jobs.");
  farm->require_subcommand(1);
  auto* status = farm->add_subcommand(
      "status",
      "What the farm's queue holds now: the workers (one per GPU) with the jobs they hold and how long they\n"
      "have been quiet, the jobs waiting for a worker, the jobs in flight, the jobs taken over from a "
      "worker\n"
      "that stopped, and the results recorded (in all, and in the last minute: the farm's throughput).");
  status->footer(
      "Examples:\n"
      "  kopt farm status --queue redis://gpu-head:6379\n"
      "  KOPT_QUEUE=redis://kopt@gpu-head kopt farm status --json   # password in KOPT_QUEUE_PASSWORD\n\n"
      "The password comes from KOPT_QUEUE_PASSWORD (farm.password in a configuration file) or the URL;\n"
      "it is never printed. docs/distributed.md describes the farm.\n"
      "Exit code 0 the queue answered, 2 bad URL, 3 the queue cannot be reached.");
  add_farm_queue_options(*status, args.farm_status.farm);
  status->add_flag("--json", args.farm_status.json, "print a kopt.farm_status/1 JSON document");
}

void add_farm_queue_options(CLI::App& command, FarmQueueArgs& args) {
  command.add_option("--queue", args.queue,
                     "the farm's Redis server, redis://[user[:password]@]host[:port] (default: $KOPT_QUEUE)");
  command.add_option("--prefix", args.prefix, "the farm's key prefix (several farms can share a server)")
      ->capture_default_str();
  command.add_option("--group", args.group, "the workers' consumer group")->capture_default_str();
}

}  // namespace kopt::cli
