// Everything a worker keeps between requests: its device, trusted reference/baseline code, buffers
// per size case, reference outputs per (size, seed), and the shared L2 flush buffer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kopt/device.hpp"
#include "kopt/inputs.hpp"
#include "kopt/task.hpp"
#include "worker/gpu/buffers.hpp"
#include "worker/gpu/callable.hpp"
#include "worker/gpu/emitter.hpp"
#include "worker/gpu/watchdog.hpp"

namespace kopt::worker {

struct SizeBuffers {
  BufferSet reference;   // no guards
  BufferSet candidate;   // guarded
};

struct WorkerState {
  WorkerState(Emitter& e, Watchdog& w) : emitter(e), watchdog(w) {}
  Emitter& emitter;
  Watchdog& watchdog;
  DeviceInfo device;
  double idle_sync_us = 0.0;
  void* flush_buffer = nullptr;
  std::size_t flush_bytes = 0;

  std::map<std::string, TaskSpec> tasks;                            // by task dir
  std::map<std::string, std::unique_ptr<Callable>> trusted;         // reference/baseline by path#symbol
  std::map<std::string, SizeBuffers> buffers;                       // by task dir#size
  std::map<std::string, std::shared_ptr<TrialInputs const>> inputs;  // by task#size#seed#trial
  std::size_t input_bytes = 0;
  std::map<std::string, std::vector<std::vector<std::byte>>> reference_outputs;  // by task#size#seed
  std::size_t reference_output_bytes = 0;
  std::map<std::string, double> reference_call_us;                  // by task#size: one call, host-timed
  std::map<std::string, std::vector<double>> screen_reference_us;   // screen tier: cached samples
};

}  // namespace kopt::worker
