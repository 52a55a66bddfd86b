// Everything a worker keeps between requests: its device, trusted reference/baseline code, buffers
// per size case, reference outputs per (size, seed), and the shared L2 flush buffer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kopt/device.hpp"
#include "kopt/inputs.hpp"
#include "kopt/task.hpp"
#include "kopt/worker/masked_results.hpp"
#include "worker/gpu/buffers.hpp"
#include "worker/gpu/callable.hpp"
#include "worker/gpu/cuda_handles.hpp"
#include "worker/gpu/emitter.hpp"
#include "worker/gpu/watchdog.hpp"

namespace kopt::worker {

// Device memory freed on destruction (cuda_handles.hpp).
using DeviceMemory = DeviceAllocation<>;

// Page-locked host memory that grows on demand and is wiped before it is reused or freed: the one
// place the reference's clear results pass through on their way from the device to a masked copy.
// (A copy into pageable memory would leave them in the CUDA driver's own staging buffers.)
class PinnedStaging {
 public:
  PinnedStaging() = default;
  ~PinnedStaging();
  PinnedStaging(PinnedStaging const&) = delete;
  PinnedStaging& operator=(PinnedStaging const&) = delete;
  // At least `bytes` of page-locked memory, or nullptr when it cannot be had.
  std::byte* reserve(std::size_t bytes);
  // Wipes the first `bytes` (what the last copy through it used; at most all of it).
  void wipe(std::size_t bytes) noexcept;

 private:
  std::byte* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

struct SizeBuffers {
  BufferSet reference;                  // no guards
  BufferSet candidate;                  // guarded
  std::vector<DeviceMemory> first_run;  // per buffer: a result buffer's first run (device fast path)
};

// A trial's data kept on the device for the verification fast path (device_checks.hpp): pristine
// inputs and the reference's results, plus facts about the reference computed once on the host.
struct DeviceTrial {
  std::vector<DeviceMemory> pristine;   // per buffer: inputs and inouts (empty for outputs)
  std::vector<DeviceMemory> reference;  // per buffer: outputs and inouts, masked (empty for inputs)
  std::uint64_t key = 0;                // the mask's key (masked_results.hpp), kept on the host
  std::vector<double> scale;            // per buffer: max |ref| over finite values
  std::vector<bool> varies;             // per buffer: the reference has two distinct values
  std::size_t bytes = 0;
};

struct WorkerState {
  WorkerState(Emitter& e, Watchdog& w) : emitter(e), watchdog(w) {}
  Emitter& emitter;
  Watchdog& watchdog;
  DeviceInfo device;
  double idle_sync_us = 0.0;
  DeviceMemory flush_buffer;  // scrubbed between timed calls (null: no flushing)
  std::size_t flush_bytes = 0;

  std::map<std::string, TaskSpec> tasks;                             // by task dir
  std::map<std::string, std::unique_ptr<Callable>> trusted;          // reference/baseline by path#symbol
  std::map<std::string, SizeBuffers> buffers;                        // by task dir#size
  std::map<std::string, std::shared_ptr<TrialInputs const>> inputs;  // by task#size#seed#trial
  std::size_t input_bytes = 0;
  std::map<std::string, MaskedResults> reference_outputs;  // by task#size#seed#trial, masked
  std::size_t reference_output_bytes = 0;
  std::map<std::string, double> reference_call_us;                 // by task#size: one call, host-timed
  std::map<std::string, std::vector<double>> screen_reference_us;  // screen tier: cached samples
  std::map<std::string, double> screen_best_us;  // screen tier: fastest candidate median per size (racing)
  std::map<std::string, DeviceTrial> device_trials;  // by task#size#seed#trial
  std::size_t device_trial_bytes = 0;
  DeviceMemory device_counts;  // DeviceCounts[kMaxCountSlots]
  PinnedStaging result_staging;
};

}  // namespace kopt::worker
