// Vendor baseline for fft-f32: cufftExecC2C (single precision, forward, unnormalised, out of place),
// batched over B transforms of N points. Plans are created once per (N, B), bound to the per-thread
// default stream kopt times on, and kept for the life of the process (plan creation allocates the
// workspace; it is never done per call for a size seen before).
#include <cuda_runtime.h>
#include <cufft.h>

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

}  // namespace

extern "C" void fft(float* out, const float* in, int N, int B) {
  if (N <= 0 || B <= 0) return;
  cufftHandle const plan = plan_for(N, B);
  if (plan == 0) return;
  // An out-of-place C2C transform does not modify its input; cuFFT's API just takes it non-const.
  auto* const input = reinterpret_cast<cufftComplex*>(const_cast<float*>(in));
  auto* const output = reinterpret_cast<cufftComplex*>(out);
  cufftResult const status = cufftExecC2C(plan, input, output, CUFFT_FORWARD);
  if (status != CUFFT_SUCCESS) std::fprintf(stderr, "baseline_cufft.cu: cufftExecC2C failed (%d)\n", status);
}
