#include "worker/gpu/device_verification.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "kopt/verify.hpp"
#include "worker/gpu/device_checks.hpp"

namespace kopt::worker {
namespace {

constexpr std::size_t kMaxCountSlots = 64;
constexpr double kTinyScale = 1e-30;  // as in src/verify

bool upload(DeviceMemory& dst, std::vector<std::byte> const& src) {
  dst = allocate_device(src.size());
  if (!dst) return false;
  return src.empty() || cudaMemcpy(dst.get(), src.data(), src.size(), cudaMemcpyHostToDevice) == cudaSuccess;
}

}  // namespace

DeviceTrial const* device_trial(WorkerState& state, TaskSpec const& task, SizeCase const& size,
                                TrialInputs const& inputs, MaskedResults const& expected) {
  std::string const key = task.dir.string() + "#" + size.name + "#" + std::to_string(inputs.seed) + "#" +
                          std::to_string(inputs.trial);
  if (auto it = state.device_trials.find(key); it != state.device_trials.end()) return &it->second;
  if (task.buffers.size() + 1 > kMaxCountSlots) return nullptr;
  std::size_t bytes = 0;
  for (auto const& b : inputs.buffers) bytes += b.bytes.size();
  bytes += expected.bytes();
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  // Keep a quarter of the device free for candidates; drop older trials when over budget.
  if (bytes > free_bytes / 4) {
    state.device_trials.clear();
    state.device_trial_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    if (bytes > free_bytes / 4) return nullptr;
  }
  if (!state.device_counts) state.device_counts = allocate_device(sizeof(DeviceCounts) * kMaxCountSlots);
  if (!state.device_counts) return nullptr;
  DeviceTrial trial;
  trial.pristine.resize(task.buffers.size());
  trial.reference.resize(task.buffers.size());
  trial.scale.assign(task.buffers.size(), 0.0);
  trial.varies.assign(task.buffers.size(), false);
  std::size_t k = 0;
  for (std::size_t i = 0; i < task.buffers.size(); ++i) {
    auto const& b = task.buffers[i];
    if (has_initial_contents(b.role) && !upload(trial.pristine[i], inputs.buffers[i].bytes)) return nullptr;
    if (is_compared(b.role)) {
      if (!upload(trial.reference[i], expected.masked(k))) return nullptr;
      trial.scale[i] = expected.facts(k).scale;
      trial.varies[i] = expected.facts(k).varies;
      ++k;
    }
  }
  trial.key = expected.key();
  trial.bytes = bytes;
  state.device_trial_bytes += bytes;
  return &state.device_trials.emplace(key, std::move(trial)).first->second;
}

std::optional<Verdict> verify_on_device(WorkerState& state, TaskSpec const& task, SizeCase const& size,
                                        SizeBuffers& buffers, Callable& candidate, DeviceTrial const& trial,
                                        double deadline_ms, int runs, bool keep_scratch) {
  auto& set = buffers.candidate;
  auto const& bufs = set.buffers();
  std::size_t const n = bufs.size();
  if (buffers.first_run.size() != n) {
    buffers.first_run.clear();
    buffers.first_run.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (is_compared(bufs[i].role)) buffers.first_run[i] = allocate_device(bufs[i].bytes);
      if (is_compared(bufs[i].role) && !buffers.first_run[i]) return std::nullopt;
    }
  }
  auto args = ArgPack::build(task, size, set);
  if (!args) return std::nullopt;
  auto* counts = static_cast<DeviceCounts*>(state.device_counts.get());
  DeviceCounts* general = counts + n;
  cudaMemsetAsync(counts, 0, sizeof(DeviceCounts) * (n + 1), cudaStreamPerThread);
  std::byte const poisons[2] = {kPoisonA, kPoisonB};
  for (int run = 0; run < runs; ++run) {
    for (std::size_t i = 0; i < n; ++i) {
      auto const& b = bufs[i];
      if (has_initial_contents(b.role) && b.bytes > 0) {
        cudaMemcpyAsync(b.data(), trial.pristine[i].get(), b.bytes, cudaMemcpyDeviceToDevice,
                        cudaStreamPerThread);
      }
      if (b.role == Role::output && b.bytes > 0) {
        cudaMemsetAsync(b.data(), std::to_integer<int>(poisons[run]), b.bytes, cudaStreamPerThread);
      }
      if (b.role == Role::scratch && run == 0 && !keep_scratch && b.bytes > 0) {
        cudaMemsetAsync(b.data(), std::to_integer<int>(kPoisonA), b.bytes, cudaStreamPerThread);
      }
      cudaMemsetAsync(b.allocation.get(), std::to_integer<int>(kGuardByte), b.guard, cudaStreamPerThread);
      cudaMemsetAsync(b.data() + b.bytes, std::to_integer<int>(kGuardByte), b.guard, cudaStreamPerThread);
    }
    if (cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess) return std::nullopt;
    if (auto failure = call_candidate(state, candidate, *args, deadline_ms)) return failure;
    for (std::size_t i = 0; i < n; ++i) {
      auto const& b = bufs[i];
      launch_count_bytes_not_equal(b.allocation.get(), b.guard, std::to_integer<unsigned char>(kGuardByte),
                                   &general->guard_bad);
      launch_count_bytes_not_equal(b.data() + b.bytes, b.guard, std::to_integer<unsigned char>(kGuardByte),
                                   &general->guard_bad);
      if (b.role == Role::input) {
        launch_count_words_differing(b.data(), trial.pristine[i].get(), b.bytes, &general->input_changed);
        continue;
      }
      if (!is_compared(b.role)) continue;
      ToleranceSpec const tol = task.tolerance_for(b.dtype);
      bool const exact = !is_floating(b.dtype) && !(tol.atol > 0.0);
      double const allowance = tol.atol * std::max(trial.scale[i], kTinyScale);
      int const poison = b.role == Role::output ? std::to_integer<int>(poisons[run]) : -1;
      launch_compare(b.dtype, trial.reference[i].get(), trial.key, b.data(), b.count, allowance, tol.rtol,
                     exact, poison, &counts[i]);
      if (run == 0) {
        if (b.role == Role::output) {
          launch_count_differs_from_first(b.data(), b.count, size_of(b.dtype), &counts[i].differs_from_first);
        }
        if (runs > 1) {
          cudaMemcpyAsync(buffers.first_run[i].get(), b.data(), b.bytes, cudaMemcpyDeviceToDevice,
                          cudaStreamPerThread);
        }
      } else {
        launch_count_words_differing(b.data(), buffers.first_run[i].get(), b.bytes, &general->run_differs);
      }
    }
  }
  std::vector<DeviceCounts> host(n + 1);
  if (cudaMemcpy(host.data(), counts, sizeof(DeviceCounts) * (n + 1), cudaMemcpyDeviceToHost) !=
      cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  DeviceCounts const& g = host[n];
  if (g.guard_bad != 0 || g.input_changed != 0 || g.run_differs != 0) return std::nullopt;
  Verdict verdict;
  for (std::size_t i = 0; i < n; ++i) {
    auto const& b = bufs[i];
    if (!is_compared(b.role)) continue;
    DeviceCounts const& c = host[i];
    double const allowed = task.tolerance_for(b.dtype).mismatch_fraction * static_cast<double>(b.count);
    if (c.unwritten != 0 || static_cast<double>(c.mismatches) > allowed) return std::nullopt;
    if (b.role == Role::output && trial.varies[i] && b.count >= 2 && c.differs_from_first == 0)
      return std::nullopt;
    verdict.max_abs_err = std::max(verdict.max_abs_err, bits_to_double(c.max_abs_bits));
    verdict.max_rel_err = std::max(verdict.max_rel_err, bits_to_double(c.max_rel_bits));
    verdict.mismatches += c.mismatches;
  }
  return verdict;
}

}  // namespace kopt::worker
