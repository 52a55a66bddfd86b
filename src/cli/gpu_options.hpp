// --device and --gpus on the commands that search (optimize, bench): which of this host's GPUs evaluate
// candidates (docs/distributed.md, "One host, all its GPUs").
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace kopt::cli {

struct GpuChoice {
  int device = 0;             // --device N: this GPU only
  bool device_given = false;  // set after parsing when --device was on the command line
  std::string gpus;           // --gpus all|LIST; empty: every GPU of GPU 0's model, unless --device is given
};

// Adds both options to `command`; --device and --gpus exclude each other.
void add_gpu_options(CLI::App& command, GpuChoice& choice);

}  // namespace kopt::cli
