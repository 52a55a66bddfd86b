// Vendor baseline for fft_split-f32: cuFFT has no split-complex (planar) layout, so the baseline packs the
// real and imaginary arrays into one interleaved cufftComplex buffer, runs cufftExecC2C in place on it
// (single precision, forward, unnormalised) and unpacks the result into the two output arrays: three
// kernels, about three times the global-memory traffic of one split-aware pass (the packing passes are part
// of the time on purpose: that is what using cuFFT on split data costs). Plans are created once per (N, B),
// bound to the per-thread default stream kopt times on, and kept for the life of the process; the
// interleaved buffer is allocated on the first call of a size and grown, never per call (the first call of
// each size case runs during verification, outside graph capture).
#include <cuda_runtime.h>
#include <cufft.h>

#include <cstddef>
#include <cstdio>
#include <map>
#include <utility>

namespace {

// The plan for (N, B), or 0 if cuFFT could not make one.
cufftHandle plan_for(int N, int B) {
  static std::map<std::pair<int, int>, cufftHandle> plans;
  auto const key = std::make_pair(N, B);
  auto const it = plans.find(key);
  if (it != plans.end()) return it->second;
  cufftHandle plan = 0;
  if (cufftPlan1d(&plan, N, CUFFT_C2C, B) != CUFFT_SUCCESS) {
    std::fprintf(stderr, "baseline_cufft.cu: cufftPlan1d(N=%d, batch=%d) failed\n", N, B);
    plan = 0;
  } else {
    cufftSetStream(plan, cudaStreamPerThread);
  }
  plans.emplace(key, plan);
  return plan;
}

// At least `count` interleaved complex values of device memory, or nullptr after printing why.
cufftComplex* interleaved_scratch(std::size_t count) {
  static cufftComplex* buffer = nullptr;
  static std::size_t capacity = 0;
  if (count > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, count * sizeof(cufftComplex)) != cudaSuccess) {
      std::fprintf(stderr, "baseline_cufft.cu: cudaMalloc(%zu complex) failed\n", count);
      return nullptr;
    }
    capacity = count;
  }
  return buffer;
}

// Split to interleaved and back: one thread per complex value, coalesced (8-byte pairs on one side).
__global__ void pack_kernel(cufftComplex* out, const float* re, const float* im, long long count) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = make_cuFloatComplex(re[i], im[i]);
}

__global__ void unpack_kernel(float* re, float* im, cufftComplex const* in, long long count) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) {
    cufftComplex const v = in[i];
    re[i] = v.x;
    im[i] = v.y;
  }
}

}  // namespace

extern "C" void fft_split(float* out_re, float* out_im, const float* in_re, const float* in_im, int N,
                          int B) {
  if (N <= 0 || B <= 0) return;
  cufftHandle const plan = plan_for(N, B);
  if (plan == 0) return;
  long long const count = static_cast<long long>(N) * B;
  cufftComplex* const data = interleaved_scratch(static_cast<std::size_t>(count));
  if (data == nullptr) return;
  auto const blocks = static_cast<unsigned>((count + 255) / 256);
  pack_kernel<<<blocks, 256, 0, cudaStreamPerThread>>>(data, in_re, in_im, count);
  cufftResult const status = cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  if (status != CUFFT_SUCCESS) {
    std::fprintf(stderr, "baseline_cufft.cu: cufftExecC2C failed (%d)\n", status);
    return;
  }
  unpack_kernel<<<blocks, 256, 0, cudaStreamPerThread>>>(out_re, out_im, data, count);
}
