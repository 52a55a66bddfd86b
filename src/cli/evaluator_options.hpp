// --device, --gpus and --queue on the commands that evaluate candidates for a search (optimize, bench,
// generate): this host's GPUs, or the evaluation farm's workers (docs/distributed.md).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace kopt::cli {

struct EvaluatorChoice {
  int device = 0;             // --device N: this GPU only
  bool device_given = false;  // set while parsing when --device is on the command line
  std::string gpus;           // --gpus all|LIST; empty: every GPU of GPU 0's model, unless --device is given
  std::string queue;          // --queue URL: the farm's workers instead of this host's GPUs
  std::string queue_gpu;      // --queue-gpu MODEL: the farm's workers of this GPU model (a farm of several)
};

// Adds the options to `command`; --device, --gpus and --queue exclude one another, --queue-gpu needs --queue.
// (KOPT_QUEUE is for `kopt worker` and `kopt farm status`: a search uses the farm only when --queue says so.)
void add_evaluator_options(CLI::App& command, EvaluatorChoice& choice);

}  // namespace kopt::cli
