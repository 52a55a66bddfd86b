// Vendor baselines of the FP32 fft tasks (fft, fft_split, ifft, ifft_split): cufftExecC2C, single precision,
// batched over B transforms of N points. Plans are created once per (N, B), bound to the per-thread default
// stream kopt times on, and kept for the life of the process (plan creation allocates the workspace; it is
// never done per call for a size seen before). cuFFT has no split-complex (planar) layout, so the split
// baselines pack the real and imaginary arrays into one interleaved buffer, transform it in place and
// unpack it: three kernels, about three times the global-memory traffic of one split-aware pass (the
// packing passes are part of the time on purpose: that is what using cuFFT on split data costs). The
// interleaved buffer is allocated on the first call of a size and grown, never per call (the first call of
// each size case runs during verification, outside graph capture). cuFFT never normalises: a 1/N the task
// asks for (numpy's ifft) is one more pass, or folded into the split baseline's unpacking.
#pragma once
#include <cuda_runtime.h>
#include <cufft.h>

#include <cstddef>
#include <cstdio>
#include <map>
#include <utility>

namespace kopt_suite {

// The plan for (N, B), or 0 if cuFFT could not make one.
inline cufftHandle cufft_plan_for(int N, int B) {
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
inline cufftComplex* cufft_interleaved_scratch(std::size_t count) {
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

// Split to interleaved and back (times `scale`): one thread per complex value, coalesced.
__global__ void cufft_pack_kernel(cufftComplex* out, const float* re, const float* im, long long count) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = make_cuFloatComplex(re[i], im[i]);
}

__global__ void cufft_unpack_kernel(float* re, float* im, cufftComplex const* in, long long count,
                                    float scale) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) {
    cufftComplex const v = in[i];
    re[i] = scale == 1.0f ? v.x : v.x * scale;
    im[i] = scale == 1.0f ? v.y : v.y * scale;
  }
}

__global__ void cufft_scale_kernel(float* data, long long count, float scale) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) data[i] *= scale;
}

// Interleaved: out = DFT(in) in `direction` (CUFFT_FORWARD or CUFFT_INVERSE), times 1/N when `normalize`.
inline void cufft_interleaved(float* out, const float* in, int N, int B, int direction, bool normalize) {
  if (N <= 0 || B <= 0) return;
  cufftHandle const plan = cufft_plan_for(N, B);
  if (plan == 0) return;
  // An out-of-place C2C transform does not modify its input; cuFFT's API just takes it non-const.
  auto* const input = reinterpret_cast<cufftComplex*>(const_cast<float*>(in));
  auto* const output = reinterpret_cast<cufftComplex*>(out);
  cufftResult const status = cufftExecC2C(plan, input, output, direction);
  if (status != CUFFT_SUCCESS) {
    std::fprintf(stderr, "baseline_cufft.cu: cufftExecC2C failed (%d)\n", status);
    return;
  }
  if (normalize) {
    long long const values = 2LL * N * B;
    cufft_scale_kernel<<<static_cast<unsigned>((values + 255) / 256), 256, 0, cudaStreamPerThread>>>(
        out, values, 1.0f / static_cast<float>(N));
  }
}

// Split: the same through an interleaved copy, the 1/N folded into the unpacking.
inline void cufft_split(float* out_re, float* out_im, const float* in_re, const float* in_im, int N, int B,
                        int direction, bool normalize) {
  if (N <= 0 || B <= 0) return;
  cufftHandle const plan = cufft_plan_for(N, B);
  if (plan == 0) return;
  long long const count = static_cast<long long>(N) * B;
  cufftComplex* const data = cufft_interleaved_scratch(static_cast<std::size_t>(count));
  if (data == nullptr) return;
  auto const blocks = static_cast<unsigned>((count + 255) / 256);
  cufft_pack_kernel<<<blocks, 256, 0, cudaStreamPerThread>>>(data, in_re, in_im, count);
  cufftResult const status = cufftExecC2C(plan, data, data, direction);
  if (status != CUFFT_SUCCESS) {
    std::fprintf(stderr, "baseline_cufft.cu: cufftExecC2C failed (%d)\n", status);
    return;
  }
  float const scale = normalize ? 1.0f / static_cast<float>(N) : 1.0f;
  cufft_unpack_kernel<<<blocks, 256, 0, cudaStreamPerThread>>>(out_re, out_im, data, count, scale);
}

}  // namespace kopt_suite
