#include "worker/gpu/device_query.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "kopt/measure.hpp"
#include "worker/gpu/cuda_errors.hpp"
#include "worker/gpu/cuda_handles.hpp"

namespace kopt::worker {
namespace {

// Per-SM per-clock dense throughput by compute capability (FP32 FMA counts 2 FLOP).
struct PerSmRates {
  double fp32;    // FLOP / clock / SM
  double tensor;  // dense 16-bit tensor-core FLOP / clock / SM
};

PerSmRates rates_for(int major, int minor) {
  if (major >= 9) return {256.0, 4096.0};                // Hopper and later (lower bound for later)
  if (major == 8 && minor == 0) return {128.0, 2048.0};  // A100
  if (major == 8) return {256.0, 1024.0};                // Ampere/Ada consumer
  if (major == 7) return {128.0, 1024.0};                // Volta/Turing
  return {128.0, 0.0};
}

// Device-to-device copy of a buffer several times the L2: bytes read + written per second.
double measure_copy_bandwidth(std::int64_t l2_bytes) {
  std::size_t const bytes =
      static_cast<std::size_t>(std::max<std::int64_t>(l2_bytes * 8, std::int64_t{256} << 20));
  auto const a = allocate_device(bytes);
  auto const b = a ? allocate_device(bytes) : DeviceAllocation<>();
  if (!a || !b) return 0.0;
  cudaMemset(a.get(), 1, bytes);
  CudaEvent const start = make_cuda_event();
  CudaEvent const stop = make_cuda_event();
  std::vector<double> samples;
  for (int i = 0; i < 12; ++i) {
    cudaEventRecord(start.get(), cudaStreamPerThread);
    cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, cudaStreamPerThread);
    cudaEventRecord(stop.get(), cudaStreamPerThread);
    cudaEventSynchronize(stop.get());
    float ms = 0;
    cudaEventElapsedTime(&ms, start.get(), stop.get());
    if (i >= 2 && ms > 0)
      samples.push_back(2.0 * static_cast<double>(bytes) / (static_cast<double>(ms) * 1e-3));
  }
  if (samples.empty()) return 0.0;
  return summarize(samples).max;  // the best the copy engine path achieved
}

}  // namespace

Result<DeviceInfo> query_device(int index, bool calibrate) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    return make_error(
        ErrorCode::no_gpu,
        "no usable CUDA GPU (" +
            (err != cudaSuccess ? cuda_error_text(err) : std::string("no CUDA devices")) +
            "); this command needs an NVIDIA GPU and its driver ('kopt doctor' lists what is missing)");
  }
  if (index < 0 || index >= count) {
    return make_error(ErrorCode::invalid_argument, "device " + std::to_string(index) + " does not exist (" +
                                                       std::to_string(count) + " visible)");
  }
  if ((err = cudaSetDevice(index)) != cudaSuccess || (err = cudaFree(nullptr)) != cudaSuccess) {
    return make_error(ErrorCode::no_gpu, cuda_error_text(err));
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, index);
  DeviceInfo info;
  info.index = index;
  info.visible_devices = count;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.l2_bytes = prop.l2CacheSize;
  info.memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, index);
  info.clock_khz = clock_khz;
  cudaDriverGetVersion(&info.driver_version);
  cudaRuntimeGetVersion(&info.runtime_version);
  char uuid[64];
  auto const& u = prop.uuid.bytes;
  std::snprintf(uuid, sizeof uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                u[0] & 0xff, u[1] & 0xff, u[2] & 0xff, u[3] & 0xff, u[4] & 0xff, u[5] & 0xff, u[6] & 0xff,
                u[7] & 0xff, u[8] & 0xff, u[9] & 0xff, u[10] & 0xff, u[11] & 0xff, u[12] & 0xff, u[13] & 0xff,
                u[14] & 0xff, u[15] & 0xff);
  info.uuid = uuid;
  auto const rates = rates_for(info.cc_major, info.cc_minor);
  double const clock_hz = static_cast<double>(clock_khz) * 1e3;
  info.ceilings.fp32_flops_per_s = rates.fp32 * info.sm_count * clock_hz;
  info.ceilings.tensor_flops_per_s = rates.tensor * info.sm_count * clock_hz;
  info.ceilings.dram_bytes_per_s = calibrate ? measure_copy_bandwidth(info.l2_bytes) : 0.0;
  return info;
}

double idle_sync_latency_us() {
  cudaDeviceSynchronize();
  std::vector<double> samples;
  for (int i = 0; i < 200; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    cudaDeviceSynchronize();
    samples.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  return summarize(samples).median;
}

}  // namespace kopt::worker
