#include "worker/gpu/kernel_activity.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "kopt/worker/kernel_activity_summary.hpp"
#include "worker/gpu/cuda_handles.hpp"
#include "worker/gpu/cupti_library.hpp"

namespace kopt::worker {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{1} << 20;  // ~4000 kernel records per buffer
constexpr std::size_t kBufferAlign = 8;                     // CUPTI requires 8-byte aligned buffers

// What the buffer-completion callback collected since the last reset. CUPTI may call back from its own
// thread, so access is locked.
struct Collected {
  std::mutex mutex;
  std::vector<KernelInterval> kernels;
  int memcpys = 0;
  int memsets = 0;
};

Collected& collected() {
  static Collected instance;
  return instance;
}

CuptiLibrary const* library_for_callbacks = nullptr;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext /*context*/, uint32_t /*stream*/, uint8_t* buffer, size_t /*size*/,
                               size_t valid_size) {
  if (library_for_callbacks != nullptr && valid_size > 0) {
    Collected& out = collected();
    std::lock_guard lock(out.mutex);
    CUpti_Activity* record = nullptr;
    while (library_for_callbacks->api().activity_get_next_record(buffer, valid_size, &record) ==
           CUPTI_SUCCESS) {
      switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
          auto const* kernel = reinterpret_cast<CUpti_ActivityKernel10 const*>(record);
          out.kernels.push_back(
              KernelInterval{readable_kernel_name(kernel->name), kernel->start, kernel->end});
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: ++out.memcpys; break;
        case CUPTI_ACTIVITY_KIND_MEMSET: ++out.memsets; break;
        default: break;
      }
    }
  }
  std::free(buffer);  // NOLINT(cppcoreguidelines-no-malloc): CUPTI hands back the buffer its request callback
                      // allocated
}

// CUPTI, loaded and with its buffer callbacks registered, once per process; or why not.
struct CuptiState {
  std::unique_ptr<CuptiLibrary> library;
  std::string unavailable;
};

CuptiState& cupti() {
  static CuptiState state = [] {
    CuptiState s;
    if (char const* off = std::getenv("KOPT_WORKER_KERNEL_ACTIVITY");
        off != nullptr && std::strcmp(off, "0") == 0) {
      s.unavailable = "kernel activity turned off (KOPT_WORKER_KERNEL_ACTIVITY=0)";
      return s;
    }
    auto loaded = CuptiLibrary::load(cupti_library_candidates());
    if (!loaded) {
      s.unavailable = loaded.error().message;
      return s;
    }
    library_for_callbacks = loaded->get();
    if (CUptiResult r = (*loaded)->api().activity_register_callbacks(&buffer_requested, &buffer_completed);
        r != CUPTI_SUCCESS) {
      s.unavailable = "CUPTI buffer callbacks could not be registered: " + (*loaded)->describe(r);
      library_for_callbacks = nullptr;
    }
    s.library = std::move(*loaded);
    return s;
  }();
  return state;
}

constexpr CUpti_ActivityKind kCountedKinds[] = {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET};

// Disables every kind this file enables and drops what was collected, whatever happened before.
void stop_activity(CuptiLibrary const& library) {
  library.api().activity_disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  for (auto kind : kCountedKinds) library.api().activity_disable(kind);
  library.api().activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

}  // namespace

KernelActivity kernel_mode_activity() {
  KernelActivity out;
  out.launches = 1;
  out.from_cupti = false;
  return out;
}

ActivityOutcome record_kernel_activity(ActivityCall const& call) {
  ActivityOutcome outcome;
  CuptiState& state = cupti();
  if (!state.unavailable.empty() || !state.library) {
    outcome.note = state.unavailable;
    return outcome;
  }
  CuptiLibrary const& library = *state.library;
  // Everything before this call is finished (and its records, if any, dropped) before recording starts.
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess) {
    outcome.failure = classify_cuda_error(err, false);
    outcome.note = "kernel activity not recorded: the device was in error before the call";
    return outcome;
  }
  if (call.flush_buffer != nullptr) {
    cudaMemsetAsync(call.flush_buffer, 0x5a, call.flush_bytes, cudaStreamPerThread);
    cudaStreamSynchronize(cudaStreamPerThread);
  }
  library.api().activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  {
    std::lock_guard lock(collected().mutex);
    collected().kernels.clear();
    collected().memcpys = 0;
    collected().memsets = 0;
  }
  if (CUptiResult r = library.api().activity_enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
      r != CUPTI_SUCCESS) {
    stop_activity(library);
    outcome.note = "CUPTI kernel activity could not be enabled: " + library.describe(r);
    return outcome;
  }
  for (auto kind : kCountedKinds) library.api().activity_enable(kind);  // counts only: failures are harmless

  CudaEvent const start = make_cuda_event();
  CudaEvent const stop = make_cuda_event();
  std::optional<CudaFailure> failure;
  {
    WatchdogScope guard(*call.watchdog, call.deadline_ms, call.what + " (kernel activity)");
    cudaEventRecord(start.get(), cudaStreamPerThread);
    if (cudaError_t err = call.callable->call(call.args); err != cudaSuccess) {
      cudaGetLastError();
      failure = classify_cuda_error(err, true);
    } else {
      cudaEventRecord(stop.get(), cudaStreamPerThread);
      if (cudaError_t sync = cudaDeviceSynchronize(); sync != cudaSuccess)
        failure = classify_cuda_error(sync, false);
    }
  }
  // Flush while the kinds are still enabled, then disable them: no record of this call is lost.
  CUptiResult const flushed = library.api().activity_flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  stop_activity(library);
  if (failure) {
    outcome.failure = failure;
    outcome.note = "kernel activity not recorded: " + call.what + " failed: " + failure->message;
    return outcome;
  }
  if (flushed != CUPTI_SUCCESS) {
    outcome.note = "CUPTI activity records could not be flushed: " + library.describe(flushed);
    return outcome;
  }
  float ms = 0.0f;
  std::optional<double> call_us;
  if (cudaEventElapsedTime(&ms, start.get(), stop.get()) == cudaSuccess)
    call_us = static_cast<double>(ms) * 1000.0;
  std::lock_guard lock(collected().mutex);
  outcome.activity =
      summarize_activity(collected().kernels, collected().memcpys, collected().memsets, call_us);
  return outcome;
}

}  // namespace kopt::worker
