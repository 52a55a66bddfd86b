#include "worker/gpu/calibration.hpp"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/request_messages.hpp"
#include "worker/gpu/calibration_kernels.hpp"
#include "worker/gpu/cuda_handles.hpp"

namespace kopt::worker {
namespace {

using nlohmann::json;

// Times `work` (which enqueues on cudaStreamPerThread) `repeats` times after `warmup` runs; the
// best run in ms (a ceiling is what the hardware can do, so the fastest run is the estimate).
template <class Work>
double best_ms(Work&& work, int warmup, int repeats) {
  CudaEvent const start = make_cuda_event();
  CudaEvent const stop = make_cuda_event();
  for (int i = 0; i < warmup; ++i) work();
  cudaStreamSynchronize(cudaStreamPerThread);
  double best = 0.0;
  for (int i = 0; i < repeats; ++i) {
    cudaEventRecord(start.get(), cudaStreamPerThread);
    work();
    cudaEventRecord(stop.get(), cudaStreamPerThread);
    cudaEventSynchronize(stop.get());
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start.get(), stop.get());
    if (ms > 0.0f && (best == 0.0 || ms < best)) best = ms;
  }
  return best;
}

double copy_bandwidth(std::int64_t l2_bytes, std::vector<std::string>& notes) {
  std::size_t const bytes =
      static_cast<std::size_t>(std::max<std::int64_t>(l2_bytes * 16, std::int64_t{1} << 30));
  auto const a = allocate_device(bytes);
  auto const b = a ? allocate_device(bytes) : DeviceAllocation<>();
  if (!a || !b) {
    notes.push_back("copy bandwidth: could not allocate 2 x " + std::to_string(bytes >> 20) + " MiB");
    return 0.0;
  }
  cudaMemset(a.get(), 1, bytes);
  double const ms = best_ms(
      [&] { cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, cudaStreamPerThread); }, 3,
      20);
  return ms > 0 ? 2.0 * static_cast<double>(bytes) / (ms * 1e-3) : 0.0;  // read + write
}

double ffma_throughput(int sm_count, std::vector<std::string>& notes) {
  int const blocks = std::max(1, sm_count) * 16;  // several waves' worth of resident blocks
  int const iterations = 1 << 16;
  auto sink = allocate_device<float>(sizeof(float) * static_cast<std::size_t>(blocks) * kFfmaThreads);
  if (!sink) {
    notes.emplace_back("FP32: could not allocate the sink");
    return 0.0;
  }
  double const ms = best_ms([&] { launch_ffma_peak(sink.get(), blocks, iterations); }, 2, 10);
  sink.reset();  // before reading the kernel's error, as the error may show at the free
  if (cudaGetLastError() != cudaSuccess || ms <= 0) {
    notes.emplace_back("FP32: the FFMA kernel failed");
    return 0.0;
  }
  double const flops = 2.0 * kFfmaChains * static_cast<double>(iterations) * blocks * kFfmaThreads;
  return flops / (ms * 1e-3);
}

// cuBLAS, loaded only when calibrating: the worker does not link it, so evaluating candidates never
// pays for loading it.
struct Cublas {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  // cublasGemmEx is overloaded in C++ (a cudaDataType compute-type variant), so its type is spelled out.
  using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                    void const*, void const*, cudaDataType, int, void const*, cudaDataType,
                                    int, void const*, void*, cudaDataType, int, cublasComputeType_t,
                                    cublasGemmAlgo_t);
  GemmEx gemm = nullptr;
  bool ok() const { return create && destroy && set_stream && gemm; }
};

Cublas load_cublas() {
  Cublas api;
  void* library = nullptr;
  for (char const* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
    library = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr) break;
  }
  if (library == nullptr) return api;  // kept loaded for the worker's life when found
  api.create = reinterpret_cast<decltype(api.create)>(::dlsym(library, "cublasCreate_v2"));
  api.destroy = reinterpret_cast<decltype(api.destroy)>(::dlsym(library, "cublasDestroy_v2"));
  api.set_stream = reinterpret_cast<decltype(api.set_stream)>(::dlsym(library, "cublasSetStream_v2"));
  api.gemm = reinterpret_cast<decltype(api.gemm)>(::dlsym(library, "cublasGemmEx"));
  return api;
}

// Dense M = N = K GEMM through cuBLAS with 16-bit inputs and FP32 accumulation.
double tensor_throughput(Cublas const& cublas, cudaDataType_t type, char const* name,
                         std::vector<std::string>& notes) {
  if (!cublas.ok()) {
    notes.push_back(std::string(name) + ": libcublas could not be loaded");
    return 0.0;
  }
  int const n = 8192;
  std::size_t const elements = static_cast<std::size_t>(n) * n;
  double ms = 0.0;
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  {  // the buffers and the cuBLAS handle are released at the end of this block
    auto const a = allocate_device(elements * 2);
    auto const b = allocate_device(elements * 2);
    auto const c = allocate_device(elements * 4);
    cublasHandle_t created = nullptr;
    if (!a || !b || !c || cublas.create(&created) != CUBLAS_STATUS_SUCCESS) {
      notes.push_back(std::string(name) + ": cuBLAS or its buffers are not available");
      (void)cudaGetLastError();
      return 0.0;
    }
    auto const destroy = [&cublas](cublasHandle_t h) { cublas.destroy(h); };
    std::unique_ptr<std::remove_pointer_t<cublasHandle_t>, decltype(destroy)> const handle(created, destroy);
    cudaMemset(a.get(), 0, elements * 2);  // zeros: the tensor cores' rate does not depend on the values
    cudaMemset(b.get(), 0, elements * 2);
    cublas.set_stream(handle.get(), cudaStreamPerThread);
    float const alpha = 1.0f;
    float const beta = 0.0f;
    ms = best_ms(
        [&] {
          status =
              cublas.gemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a.get(), type, n, b.get(),
                          type, n, &beta, c.get(), CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        },
        3, 10);
  }
  (void)cudaGetLastError();
  if (status != CUBLAS_STATUS_SUCCESS || ms <= 0) {
    notes.push_back(std::string(name) + ": cublasGemmEx failed");
    return 0.0;
  }
  return 2.0 * static_cast<double>(n) * n * n / (ms * 1e-3);
}

}  // namespace

json handle_calibrate(WorkerState& state, json const& request) {
  auto parsed = parse_calibrate_request(request);
  if (!parsed) {
    return to_json(ErrorReply{"calibrate", request.value("id", std::int64_t{0}), ErrorCode::internal_error,
                              parsed.error().message});
  }
  auto const t0 = std::chrono::steady_clock::now();
  std::vector<std::string> notes;
  CalibrateReply reply;
  reply.id = parsed->id;
  reply.dram_bytes_per_s = copy_bandwidth(state.device.l2_bytes, notes);
  reply.fp32_flops_per_s = ffma_throughput(state.device.sm_count, notes);
  Cublas const cublas = load_cublas();
  reply.bf16_tensor_flops_per_s = tensor_throughput(cublas, CUDA_R_16BF, "BF16", notes);
  reply.fp16_tensor_flops_per_s = tensor_throughput(cublas, CUDA_R_16F, "FP16", notes);
  reply.notes = std::move(notes);
  reply.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return to_json(reply);
}

}  // namespace kopt::worker
