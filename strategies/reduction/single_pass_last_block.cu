// Strategy single_pass_last_block, reduction family (kernel mode): *out = combine over in[0..n) in ONE
// kernel. GRID blocks (fewer for small n) stream the input with 128-bit loads (UNROLL independent loads
// in flight per thread), reduce each block with warp shuffles and store one partial per block into a
// __device__ array; thread 0 then fences and takes a ticket from a __device__ counter with atomicInc,
// which wraps back to 0 when the last block takes it (the counter resets itself for the next launch).
// The block that draws the last ticket combines all partials in a fixed order and rounds once to T, so
// the result is deterministic and the output needs no initialisation. Any alignment and any n work
// (scalar head up to the first 16-byte boundary and scalar tail).
//
// Knobs: BLOCK threads per block; UNROLL 128-bit loads in flight per thread; GRID the most blocks launched
// (multiples of the H200's 132 SMs; the rest is a grid-stride loop).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [132, 264, 528, 1056, 2112] resources=none
// kopt:constraint GRID * BLOCK <= 270336
// kopt:constraint BLOCK * UNROLL <= 4096
// kopt:launch grid=(max(1, min(GRID, ceil_div({{ARG2}}, BLOCK * UNROLL * 4)))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 528
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

namespace reduce_last_block {

using T = {{T}};
constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kMaxGrid = 4096;                          // >= every GRID value
static_assert(GRID <= kMaxGrid, "the partials array holds one value per block");

__device__ float partials[kMaxGrid];
__device__ unsigned int ticket = 0u;

__device__ __forceinline__ float combine(float a, float b) { return ({{combine}}); }
__device__ __forceinline__ float identity() { return ({{identity}}); }

__device__ __forceinline__ float warp_combine(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = combine(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// The block's combined value, valid in thread 0. Two calls must be separated by a __syncthreads().
__device__ __forceinline__ float block_combine(float v) {
  __shared__ float warp_values[BLOCK / 32];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  v = warp_combine(v);
  if (lane == 0) warp_values[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < BLOCK / 32 ? warp_values[lane] : identity();
    v = warp_combine(v);
  }
  return v;
}

// This thread's share of the grid-wide reduction.
__device__ __forceinline__ float thread_partial(const T* __restrict__ in, int n) {
  using kopt_strategy::Pack;
  using kopt_strategy::to_float;
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = identity();
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const stride = static_cast<long long>(gridDim.x) * BLOCK;
  unsigned long long const address = reinterpret_cast<unsigned long long>(in);
  long long head = static_cast<long long>(((16ull - (address & 15ull)) & 15ull) / sizeof(T));
  if (address % sizeof(T) != 0 || head > n) head = n;  // no aligned body: everything goes element-wise
  for (long long i = tid; i < head; i += stride) acc[0] = combine(acc[0], to_float(in[i]));
  T const* body = in + head;
  long long const m = n - head;
  long long const packs = m / kVec;
  long long p = tid;
  for (; p + (UNROLL - 1) * stride < packs; p += UNROLL * stride) {
    Pack<T, kVec> v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = kopt_strategy::load_pack<T, kVec>(body + (p + u * stride) * kVec);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e) acc[u] = combine(acc[u], to_float(v[u].v[e]));
    }
  }
  for (; p < packs; p += stride) {
    Pack<T, kVec> const v = kopt_strategy::load_pack<T, kVec>(body + p * kVec);
#pragma unroll
    for (int e = 0; e < kVec; ++e) acc[0] = combine(acc[0], to_float(v.v[e]));
  }
  long long const t = packs * kVec + tid;  // tail: fewer than kVec elements
  if (t < m) acc[0] = combine(acc[0], to_float(body[t]));
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) acc[0] = combine(acc[0], acc[u]);
  return acc[0];
}

}  // namespace reduce_last_block

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int n) {
  using namespace reduce_last_block;
  __shared__ bool last_block;
  float const block_value = block_combine(thread_partial(in, n < 0 ? 0 : n));
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_value;
    __threadfence();  // the partial is visible device-wide before the ticket is taken
    unsigned int const drawn = atomicInc(&ticket, gridDim.x - 1u);  // wraps to 0 after the last block
    last_block = drawn == gridDim.x - 1u;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  float acc = identity();
  for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(gridDim.x); i += BLOCK)
    acc = combine(acc, __ldcg(&partials[i]));  // from L2: other SMs wrote them
  float const total = block_combine(acc);
  if (threadIdx.x == 0) *out = kopt_strategy::from_float<T>(total);
}
