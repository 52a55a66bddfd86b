// Strategy row_logsumexp_online, row_logsumexp family (kernel mode): out[r] = log(sum_c exp(in[r*cols + c])),
// computed stably, of a row-major rows x cols matrix (torch.logsumexp over the last dimension). Each row belongs
// to a group of GROUP threads (part of a warp, a warp, or several warps of the block); each thread keeps the
// online softmax's statistic of its share of the row, a running maximum m and the sum s of exp(x - m): a
// 128-bit pack of elements costs one maximum over the pack, one rescaling of s when the maximum grows and one
// expf per element (the generic row_reduce strategies with log-add-exp as `combine` pay an expf and a log1pf per
// element, which bounds them by arithmetic rather than DRAM). Pairs (m, s) are merged by warp shuffles, then
// across the group's warps through shared memory in a fixed order; the group's first thread writes m + log(s)
// rounded once to T. Any cols and alignment: a scalar head up to the row's first 16-byte boundary and a scalar
// tail around the packs. An empty row gives -inf, as PyTorch; a NaN anywhere in a row gives NaN.
//
// Knobs: GROUP threads per row; BLOCK threads per block (BLOCK / GROUP rows); UNROLL 128-bit loads in flight
// per thread; HINT the loads' cache policy (2: L2 evict-first + 256-byte fetches, 1: ld.global.cs, 0:
// ld.global.nc).
// kopt:knob GROUP = [8, 32, 128, 512, 1024]
// kopt:knob BLOCK = [256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4]
// kopt:knob HINT = [0, 2] resources=none
// kopt:constraint BLOCK >= GROUP
// kopt:launch grid=(max(1, ceil_div({{ARG2}}, BLOCK / GROUP))) block=(BLOCK) kernel={{ENTRY}}

#ifndef GROUP
#define GROUP 32
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 2
#endif
#ifndef HINT
#define HINT 2
#endif

namespace row_logsumexp_online {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh

static_assert(GROUP >= 1 && GROUP <= 1024 && (GROUP & (GROUP - 1)) == 0, "a power-of-two group of threads");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024 && BLOCK % GROUP == 0, "whole warps, whole groups");

__device__ __forceinline__ float load1(T const* p) { return kopt_strategy::to_float(__ldg(p)); }

// kopt:include online_lse.cuh

// Adds a 128-bit pack: its maximum first, so that s is rescaled at most once per pack.
__device__ __forceinline__ void add_pack(Stat& a, uint4 const& v) {
  float x[kVec];
  float top = a.m;
#pragma unroll
  for (int e = 0; e < kVec; ++e) {
    x[e] = pack_value(v, e);
    top = fmaxf(top, x[e]);
  }
  if (top == -INFINITY) {  // nothing but -inf so far, and here: keep a NaN as add1 does
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      if (x[e] != x[e]) a.m = a.s = x[e];
    return;
  }
  float s = a.s * expf(a.m - top);
#pragma unroll
  for (int e = 0; e < kVec; ++e) s += expf(x[e] - top);
  a.s = s;
  a.m = top;
}

// Merges the statistics of aligned groups of Lanes lanes (Lanes <= 32) of a warp whose 32 lanes all call it.
template <int Lanes>
__device__ __forceinline__ void warp_merge(Stat& a) {
#pragma unroll
  for (int offset = Lanes / 2; offset > 0; offset >>= 1) {
    float const m2 = __shfl_xor_sync(0xffffffffu, a.m, offset);
    float const s2 = __shfl_xor_sync(0xffffffffu, a.s, offset);
    merge(a, m2, s2);
  }
}

}  // namespace row_logsumexp_online

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace row_logsumexp_online;
  constexpr int kWarpLanes = GROUP < 32 ? GROUP : 32;
  int const lane = static_cast<int>(threadIdx.x) % GROUP;
  long long const row = static_cast<long long>(blockIdx.x) * (BLOCK / GROUP) + static_cast<int>(threadIdx.x) / GROUP;
  // No early return: every thread reaches the shuffles and the barrier (a row past the end adds nothing).
  Stat a;
  if (row < rows && cols > 0) {
    T const* const x = in + row * cols;
    unsigned long long const address = reinterpret_cast<unsigned long long>(x);
    long long head = static_cast<long long>(((16ull - (address & 15ull)) & 15ull) / sizeof(T));
    if (address % sizeof(T) != 0 || head > cols) head = cols;
    for (long long i = lane; i < head; i += GROUP) add1(a, load1(x + i));
    T const* const body = x + head;
    long long const packs = (cols - head) / kVec;
    unsigned long long const policy = evict_first_policy();
    long long p = lane;
#pragma unroll 1
    for (; p + static_cast<long long>(UNROLL - 1) * GROUP < packs; p += static_cast<long long>(UNROLL) * GROUP) {
      uint4 v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = load16(body + (p + static_cast<long long>(u) * GROUP) * kVec, policy);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) add_pack(a, v[u]);
    }
    for (; p < packs; p += GROUP) add_pack(a, load16(body + p * kVec, policy));
    for (long long t = head + packs * kVec + lane; t < cols; t += GROUP) add1(a, load1(x + t));
  }
  warp_merge<kWarpLanes>(a);
  if (GROUP > 32) {
    // The group's warps, in order: each warp's first lane leaves its statistic, then the group's first warp
    // merges them (at most 32) and its first lane writes the row.
    constexpr int kWarps = BLOCK / 32;
    constexpr int kGroupWarps = GROUP / 32;
    __shared__ float warp_m[kWarps];
    __shared__ float warp_s[kWarps];
    int const warp = static_cast<int>(threadIdx.x) / 32;
    if ((threadIdx.x & 31u) == 0u) {
      warp_m[warp] = a.m;
      warp_s[warp] = a.s;
    }
    __syncthreads();
    if (lane >= 32) return;  // not the group's first warp
    int const first = warp;  // the group's first warp
    Stat b;
    if (lane < kGroupWarps) {
      b.m = warp_m[first + lane];
      b.s = warp_s[first + lane];
    }
    warp_merge<32>(b);
    a = b;
  }
  if (row < rows && lane == 0) out[row] = kopt_strategy::from_float<T>(log_sum_exp(a));
}
