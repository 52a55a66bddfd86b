#include "worker/gpu/timing.hpp"

#include <algorithm>
#include <chrono>

#include "kopt/elapsed.hpp"
#include "kopt/verify.hpp"

namespace kopt::worker {
namespace {

using Clock = std::chrono::steady_clock;

double median_of(std::vector<double> const& v) {
  return v.empty() ? 0.0 : summarize(v).median;
}

}  // namespace

Timer::Timer(TimingPolicy policy, Watchdog& watchdog, void* flush_buffer, std::size_t flush_bytes,
             double idle_sync_us)
    : policy_(policy),
      watchdog_(watchdog),
      flush_buffer_(flush_buffer),
      flush_bytes_(flush_bytes),
      idle_sync_us_(idle_sync_us),
      start_(make_cuda_event()),
      stop_(make_cuda_event()) {}

std::optional<double> Timer::sample(TimingSubject& subject, bool device_wide, bool flush,
                                    TimingOutcome& outcome) {
  auto fail = [&](cudaError_t err, bool during_launch) -> std::optional<double> {
    outcome.ok = false;
    outcome.failed_subject = subject.name;
    outcome.failure = classify_cuda_error(err, during_launch);
    return std::nullopt;
  };
  if (flush && flush_buffer_ != nullptr) {
    cudaMemsetAsync(flush_buffer_, static_cast<int>(++flush_round_ & 0xff), flush_bytes_,
                    cudaStreamPerThread);
  }
  cudaEventRecord(start_.get(), cudaStreamPerThread);
  WatchdogScope guard(watchdog_, subject.deadline_ms, subject.name + " (timing)");
  if (cudaError_t err = subject.callable->call(subject.args); err != cudaSuccess) return fail(err, true);
  if (device_wide) {
    if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess) return fail(err, false);
    cudaEventRecord(stop_.get(), cudaStreamPerThread);
    if (cudaError_t err = cudaEventSynchronize(stop_.get()); err != cudaSuccess) return fail(err, false);
  } else {
    cudaEventRecord(stop_.get(), cudaStreamPerThread);
    if (cudaError_t err = cudaEventSynchronize(stop_.get()); err != cudaSuccess) return fail(err, false);
    auto t0 = Clock::now();
    if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess) return fail(err, false);
    subject.tails_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start_.get(), stop_.get());
  if (!scrub(subject, outcome)) return std::nullopt;
  return static_cast<double>(ms) * 1000.0;
}

bool Timer::scrub(TimingSubject& subject, TimingOutcome& outcome) {
  if (subject.scrub_after.empty()) return true;
  for (auto const& range : subject.scrub_after) {
    cudaMemsetAsync(range.data, std::to_integer<int>(kPoisonA), range.bytes, cudaStreamPerThread);
  }
  if (cudaError_t err = cudaStreamSynchronize(cudaStreamPerThread); err != cudaSuccess) {
    outcome.ok = false;
    outcome.failed_subject = subject.name;
    outcome.failure = classify_cuda_error(err, false);
    return false;
  }
  return true;
}

TimingOutcome Timer::run(std::vector<TimingSubject*> const& subjects) {
  TimingOutcome outcome;
  // Warm-up: module loading, lazy initialisation, clocks ramping up. Also tells whether any subject
  // leaves work on other streams (the device is still busy after the launch stream is done).
  std::vector<double> warm_event_us;
  for (auto* s : subjects) {
    auto t0 = Clock::now();
    std::vector<double> events;
    int calls = 0;
    while (calls < policy_.min_warmup_calls || ms_since(t0) < policy_.warmup_ms) {
      auto us = sample(*s, false, false, outcome);
      if (!us) return outcome;
      events.push_back(*us);
      ++calls;
      if (calls > 100000) break;
    }
    s->warmup_ms = ms_since(t0);
    warm_event_us.push_back(median_of(events));
  }
  for (std::size_t i = 0; i < subjects.size(); ++i) {
    double const tail = median_of(subjects[i]->tails_us);
    double const threshold = idle_sync_us_ + std::max(3.0, 0.25 * warm_event_us[i]);
    if (tail > threshold) {
      outcome.device_wide = true;
      outcome.note = subjects[i]->name + " leaves work on other streams (device busy " +
                     std::to_string(tail) +
                     " µs after its stream finished): all subjects timed to device idle";
    }
  }
  // Samples, interleaved across subjects so that clock or thermal drift hits all of them alike.
  auto const t_start = Clock::now();
  std::vector<double> total_ms(subjects.size(), 0.0);
  auto done = [&](std::size_t i) {
    if (clearly_slower(policy_, subjects[i]->samples_us, subjects[i]->race_best_us)) {
      subjects[i]->stopped_early = true;
      return true;
    }
    std::size_t const n = subjects[i]->samples_us.size();
    // precise_enough sorts the samples: asked at counts about n/16 apart, a short kernel's thousands of
    // samples are sorted O(log n) times, not once per sample (at most ~6 % more samples than needed).
    bool const checkpoint = n % std::max<std::size_t>(1, n / 16) == 0;
    return sampling_done(policy_, static_cast<int>(n), total_ms[i], ms_since(t_start)) ||
           (checkpoint && precise_enough(policy_, subjects[i]->samples_us));
  };
  if (policy_.interleave) {
    for (;;) {
      bool all_done = true;
      for (std::size_t i = 0; i < subjects.size(); ++i) {
        if (done(i)) continue;
        all_done = false;
        auto us = sample(*subjects[i], outcome.device_wide, policy_.flush_l2, outcome);
        if (!us) return outcome;
        subjects[i]->samples_us.push_back(*us);
        total_ms[i] += *us / 1000.0;
      }
      if (all_done) break;
    }
  } else {
    for (std::size_t i = 0; i < subjects.size(); ++i) {
      while (!done(i)) {
        auto us = sample(*subjects[i], outcome.device_wide, policy_.flush_l2, outcome);
        if (!us) return outcome;
        subjects[i]->samples_us.push_back(*us);
        total_ms[i] += *us / 1000.0;
      }
    }
  }
  // Short kernels: launch overhead dominates single-launch events; replaying a captured graph of
  // back-to-back calls shows the kernel's own time (with a warm L2).
  if (policy_.graph_below_us > 0 && !outcome.device_wide) {
    bool any_short = false;
    for (auto* s : subjects) any_short = any_short || median_of(s->samples_us) < policy_.graph_below_us;
    if (any_short) graph_phase(subjects, outcome);
  }
  return outcome;
}

void Timer::graph_phase(std::vector<TimingSubject*> const& subjects, TimingOutcome& outcome) {
  std::vector<CudaGraphExec> execs;
  for (auto* s : subjects) {
    if (cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
      cudaGetLastError();
      outcome.note = "graph capture unavailable";
      return;
    }
    bool call_ok = true;
    for (int k = 0; k < policy_.graph_calls && call_ok; ++k)
      call_ok = s->callable->call(s->args) == cudaSuccess;
    cudaGraph_t captured = nullptr;
    cudaError_t end = cudaStreamEndCapture(cudaStreamPerThread, &captured);
    CudaGraph const graph(captured);
    cudaGraphExec_t exec = nullptr;
    if (!call_ok || end != cudaSuccess || graph == nullptr ||
        cudaGraphInstantiate(&exec, graph.get(), 0) != cudaSuccess) {
      cudaGetLastError();
      outcome.note = s->name + " could not be captured in a CUDA graph; graph timing skipped";
      return;
    }
    execs.emplace_back(exec);
  }
  int const samples = std::max(policy_.min_samples, 10);
  for (std::size_t i = 0; i < subjects.size(); ++i) {  // warm-up replays
    for (int w = 0; w < 3; ++w) cudaGraphLaunch(execs[i].get(), cudaStreamPerThread);
    for (auto const& range : subjects[i]->scrub_after) {
      cudaMemsetAsync(range.data, std::to_integer<int>(kPoisonA), range.bytes, cudaStreamPerThread);
    }
  }
  if (cudaError_t err = cudaStreamSynchronize(cudaStreamPerThread); err != cudaSuccess) {
    outcome.ok = false;
    outcome.failed_subject = "graph replay";
    outcome.failure = classify_cuda_error(err, false);
    return;
  }
  for (int n = 0; n < samples; ++n) {
    for (std::size_t i = 0; i < subjects.size(); ++i) {
      WatchdogScope guard(watchdog_, subjects[i]->deadline_ms * policy_.graph_calls,
                          subjects[i]->name + " (graph)");
      cudaEventRecord(start_.get(), cudaStreamPerThread);
      cudaGraphLaunch(execs[i].get(), cudaStreamPerThread);
      cudaEventRecord(stop_.get(), cudaStreamPerThread);
      if (cudaError_t err = cudaEventSynchronize(stop_.get()); err != cudaSuccess) {
        outcome.ok = false;
        outcome.failed_subject = subjects[i]->name;
        outcome.failure = classify_cuda_error(err, false);
        return;
      }
      float ms = 0.0f;
      cudaEventElapsedTime(&ms, start_.get(), stop_.get());
      subjects[i]->graph_us.push_back(static_cast<double>(ms) * 1000.0 / policy_.graph_calls);
      if (!scrub(*subjects[i], outcome)) return;
    }
  }
  outcome.graphs = true;
}

}  // namespace kopt::worker
