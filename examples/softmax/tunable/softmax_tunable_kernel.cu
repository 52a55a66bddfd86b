// Kernel-mode candidate for examples/softmax with a tuning space (docs/tuning.md).
// A block holds ROWS rows; THREADS consecutive threads (one or more whole warps) share a row. Lanes
// combine their partial results with warp shuffles and, when a row spans several warps, through
// shared memory. ONLINE = 1 finds the maximum and the rescaled sum of exponentials in one pass (online
// softmax); ONLINE = 0 finds the maximum first, then the sum. ITEMS > 0 keeps up to ITEMS vectors of
// the row per thread in registers, so the row is read from global memory once; rows that do not fit
// (and ITEMS = 0) are re-read for every pass. Rows are loaded VEC floats at a time when C is a
// multiple of VEC and both buffers are VEC * 4-byte aligned; otherwise every access is scalar (with the
// same register budget), so any C works.
//
// kopt:knob THREADS = [32, 64, 128, 256, 512, 1024]
// kopt:knob ROWS = [1, 2, 4, 8, 16]
// kopt:knob VEC = [1, 2, 4]
// kopt:knob ITEMS = [0, 1, 2, 4, 8]
// kopt:knob ONLINE = [0, 1] resources=none
// Between 64 and 1024 threads per block:
// kopt:constraint THREADS * ROWS >= 64 && THREADS * ROWS <= 1024
// At most 16 cached floats per thread:
// kopt:constraint VEC * ITEMS <= 16
// A register cache is only worth having when the widest row of every size fits in it:
// kopt:constraint ITEMS == 0 || THREADS * VEC * ITEMS >= C
// kopt:launch grid=(ceil_div(N, ROWS)) block=(THREADS * ROWS)

// Defaults, so that the file also compiles on its own.
#ifndef THREADS
#define THREADS 128
#endif
#ifndef ROWS
#define ROWS 2
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef ONLINE
#define ONLINE 1
#endif

namespace softmax_tunable {

constexpr int kWarps = THREADS / 32;  // warps per row
constexpr unsigned kFullMask = 0xffffffffu;

static_assert(THREADS % 32 == 0, "a row takes whole warps");
static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");

template <int V>
struct Vector;
template <>
struct Vector<1> {
  using type = float;
  static __device__ void unpack(float (&out)[1], float v) { out[0] = v; }
  static __device__ float pack(float const (&in)[1]) { return in[0]; }
};
template <>
struct Vector<2> {
  using type = float2;
  static __device__ void unpack(float (&out)[2], float2 v) {
    out[0] = v.x;
    out[1] = v.y;
  }
  static __device__ float2 pack(float const (&in)[2]) { return make_float2(in[0], in[1]); }
};
template <>
struct Vector<4> {
  using type = float4;
  static __device__ void unpack(float (&out)[4], float4 v) {
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    out[3] = v.w;
  }
  static __device__ float4 pack(float const (&in)[4]) { return make_float4(in[0], in[1], in[2], in[3]); }
};

__device__ __forceinline__ float negative_infinity() {
  return -__int_as_float(0x7f800000);
}

// Merges the running state (m, s) with (other_m, other_s); safe when either maximum is -inf.
__device__ __forceinline__ void merge(float& m, float& s, float other_m, float other_s) {
  float const merged = fmaxf(m, other_m);
  float const scale = (m == merged) ? 1.0f : expf(m - merged);
  float const other_scale = (other_m == merged) ? 1.0f : expf(other_m - merged);
  s = s * scale + other_s * other_scale;
  m = merged;
}

template <int V>
__device__ __forceinline__ void accumulate_online(float& m, float& s, float const (&x)[V]) {
  float local = x[0];
#pragma unroll
  for (int v = 1; v < V; ++v) local = fmaxf(local, x[v]);
  if (local > m) {
    s *= expf(m - local);
    m = local;
  }
#pragma unroll
  for (int v = 0; v < V; ++v) s += expf(x[v] - m);
}

// Shared memory for combining the warps of a row: one slot per (row, warp) and per quantity.
struct Scratch {
  float first[ROWS][kWarps];
  float second[ROWS][kWarps];
};

// Every thread of the block calls these (they may synchronise the block): rows past N pass neutral values.
__device__ __forceinline__ float row_max(float m, Scratch& scratch, int row_in_block, int warp) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) m = fmaxf(m, __shfl_xor_sync(kFullMask, m, offset));
  if (kWarps > 1) {
    if (threadIdx.x % 32 == 0) scratch.first[row_in_block][warp] = m;
    __syncthreads();
#pragma unroll
    for (int w = 0; w < kWarps; ++w) m = fmaxf(m, scratch.first[row_in_block][w]);
  }
  return m;
}

__device__ __forceinline__ float row_sum(float s, Scratch& scratch, int row_in_block, int warp) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(kFullMask, s, offset);
  if (kWarps > 1) {
    if (threadIdx.x % 32 == 0) scratch.second[row_in_block][warp] = s;
    __syncthreads();
    s = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) s += scratch.second[row_in_block][w];
  }
  return s;
}

__device__ __forceinline__ void row_max_sum(float& m, float& s, Scratch& scratch, int row_in_block,
                                            int warp) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    float const other_m = __shfl_xor_sync(kFullMask, m, offset);
    float const other_s = __shfl_xor_sync(kFullMask, s, offset);
    merge(m, s, other_m, other_s);
  }
  if (kWarps > 1) {
    if (threadIdx.x % 32 == 0) {
      scratch.first[row_in_block][warp] = m;
      scratch.second[row_in_block][warp] = s;
    }
    __syncthreads();
    m = negative_infinity();
    s = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w)
      merge(m, s, scratch.first[row_in_block][w], scratch.second[row_in_block][w]);
  }
}

// One row with V floats per access and room for Items vectors per thread in registers.
template <int V, int Items>
__device__ __forceinline__ void softmax_row(float* __restrict__ y, const float* __restrict__ x, int C,
                                            bool live, Scratch& scratch, int row_in_block, int warp,
                                            int lane) {
  using Vec = typename Vector<V>::type;
  int const count = C / V;  // V divides C here
  auto const* xv = reinterpret_cast<const Vec*>(x);
  auto* yv = reinterpret_cast<Vec*>(y);
  float m = negative_infinity();
  float s = 0.0f;
  if (Items > 0 && count <= Items * THREADS) {
    float cache[Items > 0 ? Items : 1][V];
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      int const j = lane + i * THREADS;
      if (live && j < count) {
        Vector<V>::unpack(cache[i], xv[j]);
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v) cache[i][v] = negative_infinity();
      }
    }
    if (ONLINE) {
#pragma unroll
      for (int i = 0; i < Items; ++i) {
        if (lane + i * THREADS < count) accumulate_online<V>(m, s, cache[i]);
      }
      row_max_sum(m, s, scratch, row_in_block, warp);
    } else {
#pragma unroll
      for (int i = 0; i < Items; ++i) {
#pragma unroll
        for (int v = 0; v < V; ++v) m = fmaxf(m, cache[i][v]);
      }
      m = row_max(m, scratch, row_in_block, warp);
#pragma unroll
      for (int i = 0; i < Items; ++i) {
        if (lane + i * THREADS < count) {
#pragma unroll
          for (int v = 0; v < V; ++v) s += expf(cache[i][v] - m);
        }
      }
      s = row_sum(s, scratch, row_in_block, warp);
    }
    if (!live) return;
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      int const j = lane + i * THREADS;
      if (j < count) {
        float out[V];
#pragma unroll
        for (int v = 0; v < V; ++v) out[v] = expf(cache[i][v] - m) / s;
        yv[j] = Vector<V>::pack(out);
      }
    }
    return;
  }

  // Streaming: the row is read from global memory (mostly L2 after the first pass) for every pass.
  float values[V];
  if (ONLINE) {
    for (int j = lane; live && j < count; j += THREADS) {
      Vector<V>::unpack(values, xv[j]);
      accumulate_online<V>(m, s, values);
    }
    row_max_sum(m, s, scratch, row_in_block, warp);
  } else {
    for (int j = lane; live && j < count; j += THREADS) {
      Vector<V>::unpack(values, xv[j]);
#pragma unroll
      for (int v = 0; v < V; ++v) m = fmaxf(m, values[v]);
    }
    m = row_max(m, scratch, row_in_block, warp);
    for (int j = lane; live && j < count; j += THREADS) {
      Vector<V>::unpack(values, xv[j]);
#pragma unroll
      for (int v = 0; v < V; ++v) s += expf(values[v] - m);
    }
    s = row_sum(s, scratch, row_in_block, warp);
  }
  for (int j = lane; live && j < count; j += THREADS) {
    Vector<V>::unpack(values, xv[j]);
#pragma unroll
    for (int v = 0; v < V; ++v) values[v] = expf(values[v] - m) / s;
    yv[j] = Vector<V>::pack(values);
  }
}

}  // namespace softmax_tunable

extern "C" __global__ void __launch_bounds__(THREADS * ROWS)
    softmax(float* __restrict__ out, const float* __restrict__ in, int N, int C) {
  using namespace softmax_tunable;
  __shared__ Scratch scratch;
  int const row_in_block = static_cast<int>(threadIdx.x) / THREADS;
  int const lane = static_cast<int>(threadIdx.x) % THREADS;
  int const warp = lane / 32;
  int const row = static_cast<int>(blockIdx.x) * ROWS + row_in_block;
  // No early return: rows past N still take part in the block's barriers, with neutral values.
  bool const live = row < N;
  long long const offset = static_cast<long long>(live ? row : 0) * C;
  const float* x = in + offset;
  float* y = out + offset;
  bool const vectorized =
      VEC > 1 && C % VEC == 0 &&
      ((reinterpret_cast<unsigned long long>(in) | reinterpret_cast<unsigned long long>(out)) % (4u * VEC)) ==
          0;
  if (vectorized) {
    softmax_row<VEC, ITEMS>(y, x, C, live, scratch, row_in_block, warp, lane);
  } else {
    softmax_row<1, ITEMS * VEC>(y, x, C, live, scratch, row_in_block, warp, lane);
  }
}
