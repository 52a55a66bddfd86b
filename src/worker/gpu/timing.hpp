// The timing protocol (docs/timing.md): warm-up, then samples bracketed by CUDA events on the
// per-thread default stream with the L2 flushed before each, subjects interleaved (ABAB), a check
// for work left on other streams after each sample, and CUDA-graph replay for short kernels.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kopt/measure.hpp"
#include "worker/gpu/callable.hpp"
#include "worker/gpu/cuda_errors.hpp"
#include "worker/gpu/cuda_handles.hpp"
#include "worker/gpu/watchdog.hpp"

namespace kopt::worker {

// Device memory a subject's call writes that must not outlive its sample (below).
struct DeviceRange {
  void* data = nullptr;
  std::size_t bytes = 0;
};

struct TimingSubject {
  std::string name;  // "reference", "candidate", "baseline"
  Callable* callable = nullptr;
  void** args = nullptr;
  double deadline_ms = 60000;  // watchdog per call
  double race_best_us = 0;     // racing (policy.race_ratio): the fastest rival median; 0 = none
  // Poisoned (kPoisonA) after each of this subject's samples and graph replays, outside the timed
  // region: the reference's outputs, so that the answer to the inputs the candidate is timed on is
  // never in device memory while the candidate runs (docs/verification.md, "Answers out of reach").
  std::vector<DeviceRange> scrub_after;
  // Results
  bool stopped_early = false;  // clearly slower than race_best_us: sampling stopped at race_samples
  std::vector<double> samples_us;
  std::vector<double> graph_us;
  std::vector<double> tails_us;
  double warmup_ms = 0;
};

inline TimingSubject make_subject(std::string name, Callable* callable, void** args, double deadline_ms) {
  TimingSubject s;
  s.name = std::move(name);
  s.callable = callable;
  s.args = args;
  s.deadline_ms = deadline_ms;
  return s;
}

struct TimingOutcome {
  bool ok = true;
  std::string failed_subject;  // which subject's call failed
  CudaFailure failure;
  bool device_wide = false;  // work escaped the launch stream: every subject timed to device idle
  bool graphs = false;       // graph replay figures present for every subject
  std::string note;
};

class Timer {
 public:
  Timer(TimingPolicy policy, Watchdog& watchdog, void* flush_buffer, std::size_t flush_bytes,
        double idle_sync_us);
  Timer(Timer const&) = delete;
  Timer& operator=(Timer const&) = delete;
  ~Timer() = default;

  TimingOutcome run(std::vector<TimingSubject*> const& subjects);

 private:
  // One sample; returns µs or the failure.
  std::optional<double> sample(TimingSubject& subject, bool device_wide, bool flush, TimingOutcome& outcome);
  void graph_phase(std::vector<TimingSubject*> const& subjects, TimingOutcome& outcome);
  // Poisons subject.scrub_after and waits for it; false (with the failure in outcome) on an error.
  static bool scrub(TimingSubject& subject, TimingOutcome& outcome);

  TimingPolicy policy_;
  Watchdog& watchdog_;
  void* flush_buffer_;
  std::size_t flush_bytes_;
  double idle_sync_us_;
  CudaEvent start_;
  CudaEvent stop_;
  unsigned flush_round_ = 0;
};

}  // namespace kopt::worker
