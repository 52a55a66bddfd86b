// Strategy dot_single_pass_last_block, dot family (kernel mode): *result = sum_i x[i] * y[i] in ONE
// kernel. GRID blocks (fewer for small n) stream both vectors with 128-bit loads (UNROLL independent
// load pairs in flight per thread, one FP32 accumulator each, fused multiply-adds), reduce each block with
// warp shuffles and store one partial per block into a __device__ array; thread 0 fences and takes a
// ticket with atomicInc, which wraps back to 0 when the last block takes it (the counter resets itself).
// The block that draws the last ticket adds the partials in a fixed order and rounds once to T:
// deterministic, and the output needs no initialisation. When x and y share their offset from a 16-byte
// boundary, a scalar head reaches the boundary and the rest is vectorised; otherwise, and for the tail,
// elements are read one by one, so any alignment and any n work.
//
// Knobs: BLOCK threads per block; UNROLL 128-bit load pairs in flight per thread; GRID the most blocks
// launched (multiples of the H200's 132 SMs; the rest is a grid-stride loop).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [132, 264, 528, 1056, 2112] resources=none
// kopt:constraint GRID * BLOCK <= 270336
// kopt:constraint BLOCK * UNROLL <= 2048
// kopt:launch grid=(max(1, min(GRID, ceil_div({{ARG3}}, BLOCK * UNROLL * 4)))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 528
#endif

namespace dot_last_block {

using T = {{T}};
constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kMaxGrid = 4096;                          // >= every GRID value
static_assert(GRID <= kMaxGrid, "the partials array holds one value per block");

__device__ float partials[kMaxGrid];
__device__ unsigned int ticket = 0u;

// The block's sum, valid in thread 0. Two calls must be separated by a __syncthreads().
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float warp_values[BLOCK / 32];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  v = kopt_strategy::warp_sum(v);
  if (lane == 0) warp_values[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < BLOCK / 32 ? warp_values[lane] : 0.0f;
    v = kopt_strategy::warp_sum(v);
  }
  return v;
}

// This thread's share of the grid-wide dot product.
__device__ __forceinline__ float thread_partial(const T* __restrict__ x, const T* __restrict__ y, int n) {
  using kopt_strategy::Pack;
  using kopt_strategy::to_float;
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = 0.0f;
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const stride = static_cast<long long>(gridDim.x) * BLOCK;
  unsigned long long const ax = reinterpret_cast<unsigned long long>(x);
  unsigned long long const ay = reinterpret_cast<unsigned long long>(y);
  long long head = static_cast<long long>(((16ull - (ax & 15ull)) & 15ull) / sizeof(T));
  // Vectors only when both are element-aligned and equally far from a 16-byte boundary.
  if (ax % sizeof(T) != 0 || ((ax ^ ay) & 15ull) != 0 || head > n) head = n;
  for (long long i = tid; i < head; i += stride) acc[0] = fmaf(to_float(x[i]), to_float(y[i]), acc[0]);
  T const* xb = x + head;
  T const* yb = y + head;
  long long const m = n - head;
  long long const packs = m / kVec;
  long long p = tid;
  for (; p + (UNROLL - 1) * stride < packs; p += UNROLL * stride) {
    Pack<T, kVec> a[UNROLL];
    Pack<T, kVec> b[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      a[u] = kopt_strategy::load_pack<T, kVec>(xb + (p + u * stride) * kVec);
      b[u] = kopt_strategy::load_pack<T, kVec>(yb + (p + u * stride) * kVec);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e) acc[u] = fmaf(to_float(a[u].v[e]), to_float(b[u].v[e]), acc[u]);
    }
  }
  for (; p < packs; p += stride) {
    Pack<T, kVec> const a = kopt_strategy::load_pack<T, kVec>(xb + p * kVec);
    Pack<T, kVec> const b = kopt_strategy::load_pack<T, kVec>(yb + p * kVec);
#pragma unroll
    for (int e = 0; e < kVec; ++e) acc[0] = fmaf(to_float(a.v[e]), to_float(b.v[e]), acc[0]);
  }
  long long const t = packs * kVec + tid;  // tail: fewer than kVec elements
  if (t < m) acc[0] = fmaf(to_float(xb[t]), to_float(yb[t]), acc[0]);
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) acc[0] += acc[u];
  return acc[0];
}

}  // namespace dot_last_block

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ result, const {{T}}* __restrict__ x, const {{T}}* __restrict__ y, int n) {
  using namespace dot_last_block;
  __shared__ bool last_block;
  float const block_value = block_sum(thread_partial(x, y, n < 0 ? 0 : n));
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_value;
    __threadfence();  // the partial is visible device-wide before the ticket is taken
    unsigned int const drawn = atomicInc(&ticket, gridDim.x - 1u);  // wraps to 0 after the last block
    last_block = drawn == gridDim.x - 1u;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  float acc = 0.0f;
  for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(gridDim.x); i += BLOCK)
    acc += __ldcg(&partials[i]);  // from L2: other SMs wrote them
  float const total = block_sum(acc);
  if (threadIdx.x == 0) *result = kopt_strategy::from_float<T>(total);
}
