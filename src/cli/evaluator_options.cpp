#include "cli/evaluator_options.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/option_checks.hpp"

namespace kopt::cli {

void add_evaluator_options(CLI::App& command, EvaluatorChoice& choice) {
  auto* device = command.add_option("--device", choice.device, "CUDA device index: this GPU only")
                     ->check(whole_number_at_least(0));
  auto* gpus = command.add_option(
      "--gpus", choice.gpus,
      "GPUs that evaluate candidates at once: 'all' (the default: every visible GPU of GPU 0's model)\n"
      "or indices such as 0,2,3; the first gives the confirm-tier timings a report rests on");
  auto* queue = command.add_option(
      "--queue", choice.queue,
      "evaluate on the evaluation farm's workers (kopt worker) instead of this machine's GPUs: "
      "redis://[user@]host[:port], the password in KOPT_QUEUE_PASSWORD (docs/distributed.md)");
  command
      .add_option(
          "--queue-gpu", choice.queue_gpu,
          "with --queue: the GPU model whose workers evaluate, as they announce it (\"NVIDIA H200\"); "
          "needed when the farm has several")
      ->needs(queue);
  gpus->excludes(device);
  queue->excludes(device);
  queue->excludes(gpus);
  device->each([&choice](std::string const& /*value*/) { choice.device_given = true; });
}

}  // namespace kopt::cli
