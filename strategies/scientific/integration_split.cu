// Strategy integration_split: composite Simpson integration with an interval's nodes spread over lanes.
// Short intervals (n <= 16 * BLOCK nodes): a group of LANES lanes per interval, lane l evaluating nodes
// l, l + LANES, ...; long intervals (n > 16 * BLOCK): a whole block per interval. Intervals are taken in a
// grid-stride loop and the grid has at least min(B, 4096) blocks, so the few-long-intervals case fills the
// GPU. The samples f(x_j) (x_j = lo + j*h in FP32 as the reference computes them, Simpson weights 1, 4, 2,
// ..., 4, 1) are summed in FP32 over runs of at most 64 and the runs in double; partial sums meet through
// shuffles (and shared memory across warps) in double; out = sum * h / 3 rounded once.
// Knobs: LANES per short interval, BLOCK threads, FAST_MATH (fast exp/cos intrinsics; the task's rtol of
// 1e-4 allows it, verification has the last word).
//
// kopt:knob LANES = [1, 2, 4, 8, 16, 32]
// kopt:knob BLOCK = [64, 128, 256, 512]
// kopt:flag FAST_MATH = ["", "--use_fast_math"]
// kopt:launch grid=(max(ceil_div({{ARG3}} * LANES, BLOCK), min({{ARG3}}, 4096))) block=(BLOCK) kernel={{ENTRY}}

#ifndef LANES
#define LANES 4
#endif
#ifndef BLOCK
#define BLOCK 256
#endif

static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "LANES is a power of two <= 32");
static_assert(BLOCK % 32 == 0, "BLOCK is whole warps");

namespace integration_split {

// KOPT_INTEGRAND (a manifest `defines` with the task's `[strategy_params] f`, an expression in x): the
// user's integrand; without it the suite's fixed one. KOPT_INTEGRAND_P: the entry also takes `float p`, a
// scalar of the task the integrand reads (kopt renames the task's name for it to p in f).
#ifndef KOPT_INTEGRAND_P
#define KOPT_INTEGRAND_P 0
#endif
#if KOPT_INTEGRAND_P
#define KOPT_P_PARAM , float p
#define KOPT_P_ARG , p
#else
#define KOPT_P_PARAM
#define KOPT_P_ARG
#endif
__device__ __forceinline__ float integrand(float x KOPT_P_PARAM) {
#ifdef KOPT_INTEGRAND
  return KOPT_INTEGRAND;
#else
  return expf(-0.5f * x * x) * cosf(4.0f * x) + 1.0f / (1.0f + x * x);
#endif
}

// Sum of weight_j * f(x_j) over j = first, first + step, ... <= n: FP32 runs of 64 folded into double.
__device__ double weighted_samples(float a, float h, int n, int first, int step KOPT_P_PARAM) {
  double total = 0.0;
  float run = 0.0f;
  int in_run = 0;
  for (int j = first; j <= n; j += step) {
    float const weight = (j == 0 || j == n) ? 1.0f : ((j & 1) != 0 ? 4.0f : 2.0f);
    run += weight * integrand(a + static_cast<float>(j) * h KOPT_P_ARG);
    if (++in_run == 64) {
      total += static_cast<double>(run);
      run = 0.0f;
      in_run = 0;
    }
  }
  return total + static_cast<double>(run);
}

}  // namespace integration_split

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ lo, const {{T}}* __restrict__ hi, int B,
              int n KOPT_P_PARAM) {
  using namespace kopt_strategy;
  using integration_split::weighted_samples;
  if (n > 16 * BLOCK) {
    __shared__ double s_red[BLOCK / 32];
    int const warp = static_cast<int>(threadIdx.x) / 32;
    int const lane = static_cast<int>(threadIdx.x) & 31;
    for (int b = static_cast<int>(blockIdx.x); b < B; b += static_cast<int>(gridDim.x)) {
      float const a = to_float(lo[b]);
      float const h = (to_float(hi[b]) - a) / static_cast<float>(n);
      double sum = weighted_samples(a, h, n, static_cast<int>(threadIdx.x), BLOCK KOPT_P_ARG);
#pragma unroll
      for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
      if (lane == 0) s_red[warp] = sum;
      __syncthreads();
      if (threadIdx.x == 0) {
        double total = 0.0;
#pragma unroll
        for (int w = 0; w < BLOCK / 32; ++w) total += s_red[w];
        out[b] = from_float<{{T}}>(static_cast<float>(total * (static_cast<double>(h) / 3.0)));
      }
      __syncthreads();
    }
    return;
  }
  unsigned const group_mask = (LANES == 32 ? 0xffffffffu : ((1u << LANES) - 1u))
                              << ((threadIdx.x & 31) / LANES * LANES);
  long long const gid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const groups = static_cast<long long>(gridDim.x) * (BLOCK / LANES);
  int const sub = static_cast<int>(gid % LANES);
  for (long long b = gid / LANES; b < B; b += groups) {
    float const a = to_float(lo[b]);
    float const h = (to_float(hi[b]) - a) / static_cast<float>(n);
    double sum = weighted_samples(a, h, n, sub, LANES KOPT_P_ARG);
#pragma unroll
    for (int offset = LANES / 2; offset > 0; offset >>= 1) sum += __shfl_xor_sync(group_mask, sum, offset);
    if (sub == 0) out[b] = from_float<{{T}}>(static_cast<float>(sum * (static_cast<double>(h) / 3.0)));
  }
}
