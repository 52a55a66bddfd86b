// Strategy group_norm_rows, group_norm family (kernel mode): nn.GroupNorm of an N x C x HW tensor (HW the product
// of the spatial dimensions), G groups of C / G channels, each (sample, group) slab of (C / G) * HW contiguous
// elements normalised by its own mean and biased variance, then out = (x - mean) * rstd * gamma[c] + beta[c].
// A slab is a row: a group of threads per slab (whole warps, sized from the slab's length), ROWS slabs per block.
// After a linear layer (HW = 1, KernelBench level 2's Gemm + GroupNorm chains) a slab is a LayerNorm row of C / G
// values whose gamma and beta start at the group's first channel: layernorm_rows.cuh's layernorm_row, read once
// into registers (ITEMS per thread, 16-byte accesses), the exact two-pass variance, one read and one write of the
// tensor. group_norm_segments' statistics pass spends a block per slab there, 32 busy threads of 256 for a slab of
// 32 values (num_groups = 256 of 8192 features). With HW > 1 the slab is walked twice by the group (shifted sums
// around its first value, then the output with each element's channel), a correct fallback for convolution
// activations, where group_norm_segments is the one to win.
//
// kopt:knob ITEMS = [4, 8, 16]
// kopt:knob ROWS = [1, 2, 4, 8]
// Several slabs per block only when every slab of every size fits the registers of its share of the block:
// kopt:constraint ROWS == 1 || ROWS * 32 * ceil_div({{ARG6}} / max(1, {{ARG7}}) * {{ARG8}}, 32 * ITEMS) <= 1024
// kopt:launch grid=(max(1, ceil_div({{ARG5}} * {{ARG7}}, ROWS))) block=(ROWS * min(1024 / ROWS, 32 * ceil_div(max(1, {{ARG6}} / max(1, {{ARG7}}) * {{ARG8}}), 32 * ITEMS))) kernel={{ENTRY}}

#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef ROWS
#define ROWS 1
#endif

// How the shared row code is used by this strategy (layernorm_register_rows' settings, its own entry below).
#define KOPT_GROUP 0
#define KOPT_ROWS ROWS
#define KOPT_ITEMS ITEMS
#define KOPT_UNROLL 1
#define KOPT_ONLINE 1
#define KOPT_MAX_THREADS 1024
#define KOPT_ROWS_OWN_ENTRY 1
// kopt:include rows_common.cuh
// kopt:include layernorm_rows.cuh

namespace group_norm_rows {

using T = {{T}};

// The slab of L = per_group * HW elements at x (HW > 1): shifted one-pass statistics over the group, then the
// output with each element's channel c = first_channel + i / HW. Every thread of the block calls it (the group
// sums may synchronise the block); `live` is false for a padding slab.
template <bool MultiWarp>
__device__ __forceinline__ void slab(T* __restrict__ y, const T* __restrict__ x, const T* __restrict__ gamma,
                                     const T* __restrict__ beta, long long L, int HW, int first_channel, float eps,
                                     bool live, kopt_rows::Scratch<KOPT_ROWS>& scratch, kopt_rows::Group const& g) {
  using kopt_strategy::from_float;
  using kopt_strategy::to_float;
  float const k = live ? to_float(x[0]) : 0.0f;
  float sums[2] = {0.0f, 0.0f};
  for (long long i = g.lane; live && i < L; i += g.size) {
    float const d = to_float(x[i]) - k;
    sums[0] += d;
    sums[1] += d * d;
  }
  kopt_rows::group_sum<MultiWarp, KOPT_ROWS, 2>(sums, scratch, g);
  if (!live) return;
  float const count = static_cast<float>(L);
  float const mean_d = sums[0] / count;
  float const mean = k + mean_d;
  float const rstd = 1.0f / sqrtf(fmaxf(sums[1] / count - mean_d * mean_d, 0.0f) + eps);
  for (long long i = g.lane; i < L; i += g.size) {
    int const c = first_channel + static_cast<int>(i / HW);
    y[i] = from_float<T>((to_float(x[i]) - mean) * rstd * to_float(gamma[c]) + to_float(beta[c]));
  }
}

}  // namespace group_norm_rows

extern "C" __global__ void __launch_bounds__(KOPT_MAX_THREADS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ x, const {{T}}* __restrict__ gamma,
              const {{T}}* __restrict__ beta, float eps, int N, int C, int G, int HW) {
  using namespace kopt_rows;
  constexpr bool kMultiWarp = KOPT_GROUP != 32;
  if (N <= 0 || C <= 0 || G <= 0 || C % G != 0 || HW <= 0) return;  // the whole grid: nn.GroupNorm refuses C % G
  __shared__ Scratch<KOPT_ROWS> scratch;
  Group const g = make_group<KOPT_GROUP, KOPT_ROWS>();
  int const per_group = C / G;
  long long const slabs = static_cast<long long>(N) * G;
  long long const row = static_cast<long long>(blockIdx.x) * KOPT_ROWS + g.slot;
  bool const live = row < slabs;
  if (!kMultiWarp && !live) return;  // no block barriers when a slab is one warp
  long long const r = live ? row : 0;
  int const first_channel = static_cast<int>(r % G) * per_group;
  long long const L = static_cast<long long>(per_group) * HW;
  if (HW == 1) {  // uniform over the grid
    bool const aligned = kopt_strategy::aligned_to(x, 16) && kopt_strategy::aligned_to(out, 16) &&
                         kopt_strategy::aligned_to(gamma, 16) && kopt_strategy::aligned_to(beta, 16);
    layernorm_row<{{T}}, kMultiWarp, KOPT_ROWS, KOPT_ITEMS, KOPT_UNROLL>(
        out + r * L, x + r * L, gamma + first_channel, beta + first_channel, per_group, eps, live, aligned, scratch,
        g);
    return;
  }
  group_norm_rows::slab<kMultiWarp>(out + r * L, x + r * L, gamma, beta, L, HW, first_channel, eps, live, scratch,
                                    g);
}
