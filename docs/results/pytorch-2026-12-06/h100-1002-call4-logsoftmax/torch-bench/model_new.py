# log_softmax_fp32: a CUDA kernel found by kopt, as a PyTorch module (written by kopt export --torch).
#
# What is in this file, in order: the PyTorch problem, verbatim (Model, get_inputs, get_init_inputs);
# the kernel, compiled at first use by torch.utils.cpp_extension.load_inline (nvcc, built once and
# cached by PyTorch under the extension's name); ModelNew, Model's drop-in replacement whose forward
# runs the kernel; the custom op torch.ops.kopt.log_softmax_fp32; a --check.
#
# Task:      log_softmax_fp32 (/root/out/a/torch-bench/tasks/log_softmax_fp32), precision fp32
# Candidate: session 1, run 4, candidate 9
# Exported:  2026-12-06, PyTorch 2.11.0, extension kopt_log_softmax_fp32_952f35f7b6
#
# Use:
#   model = ModelNew(*get_init_inputs()).cuda()   # Model's constructor: the same parameters, in order
#   y = model(*get_inputs_on_the_gpu)             # inference only (no backward through the kernel)
# The custom op (registered at import by register(); composes with torch.compile):
#   outs = torch.ops.kopt.log_softmax_fp32(tensors, sizes)
#   tensors: x (float32, [batch_size, dim]); each contiguous, on the GPU
#   sizes:   [batch_size, dim] (ints)
#   outs:    [out] (a list of tensors)
# Check it on a GPU (Model against ModelNew on get_inputs(), with the task's tolerance, and timing):
#   python model_new.py --check

"""Level 1: log-softmax over each row."""
import torch
import torch.nn as nn


class Model(nn.Module):
    """Applies log-softmax over dim 1 of a (batch_size, dim) tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(x, dim=1)


batch_size = 256
dim = 65536


def get_inputs():
    x = torch.rand(batch_size, dim)
    return [x]


def get_init_inputs():
    return []


# ---------------------------------------------------------------------------------------------------
# Everything below was written by kopt export --torch (docs/pytorch.md, "Back to PyTorch").
# ---------------------------------------------------------------------------------------------------
import copy as _kopt_copy
import statistics as _kopt_statistics
import sys as _kopt_sys
import types as _kopt_types

import torch as _kopt_torch

_KOPT_NAME = 'log_softmax_fp32'
_KOPT_EXTENSION = 'kopt_log_softmax_fp32_952f35f7b6'
_KOPT_PRECISION = 'fp32'
_KOPT_N_INPUTS = 1
_KOPT_INPUTS = [(0, 'x')]  # (index in get_inputs(), ABI name) of each input tensor
_KOPT_FIXED = {}  # index -> the value the kernel hard-codes (non-tensor inputs)
_KOPT_STATE = []  # (kind, state_dict key, ABI name) of each parameter and buffer
_KOPT_NAMES = ['x']
_KOPT_DTYPES = [_kopt_torch.float32]
_KOPT_FLOATING = [True]
_KOPT_SIZE_NAMES = ['batch_size', 'dim']
_KOPT_SIZE_PLAN = [('dim', 0, 0, 2), ('dim', 0, 1, 2)]
_KOPT_OUTPUT_DTYPES = [_kopt_torch.float32]
_KOPT_RETURN_ORDER = [0]  # Model's return order, as positions in the kernel's outputs
_KOPT_SINGLE_OUTPUT = True
_KOPT_TOLERANCE = [{'atol': 0.0001, 'rtol': 0.0001, 'mismatch_fraction': 0.0}]
_KOPT_CUDA_CFLAGS = ['-O3', '--default-stream=per-thread', '-std=c++17', '-U__CUDA_NO_HALF_OPERATORS__', '-U__CUDA_NO_HALF_CONVERSIONS__', '-U__CUDA_NO_BFLOAT16_CONVERSIONS__', '-U__CUDA_NO_HALF2_OPERATORS__']
_KOPT_CXX_CFLAGS = ['-O3', '-std=c++17']
_KOPT_CPP_DECLARATION = 'std::vector<torch::Tensor> kopt_forward(std::vector<torch::Tensor> tensors, std::vector<int64_t> sizes);'

_KOPT_KERNEL_SOURCE = r'''// knob values of the exported configuration (kopt passed them as -D flags)
#define THREADS 256
#define UNROLL 4
// kopt optimize: THREADS=256;UNROLL=4
#define THREADS 256
#define UNROLL 4
#line 1
// kopt strategy 'log_softmax_block_per_row' for task log_softmax_fp32 (float), from softmax_block_per_row.cu
// kopt binding: out=out, in=x, N=batch_size, C=dim
// Device helpers shared by every strategy template (strategies/*/*.cu). kopt puts this text at the top of
// each instantiated strategy, so a candidate is one self-contained source (docs/strategies.md). Element
// types are FP32 and BF16 storage with FP32 arithmetic.
#include <cuda_bf16.h>

namespace kopt_strategy {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

// N elements of T moved as one aligned access (N * sizeof(T) of 4, 8 or 16 bytes is one instruction).
template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

template <typename T, int N>
__device__ __forceinline__ Pack<T, N> load_pack(T const* p) {
  return *reinterpret_cast<Pack<T, N> const*>(p);
}
template <typename T, int N>
__device__ __forceinline__ void store_pack(T* p, Pack<T, N> const& pack) {
  *reinterpret_cast<Pack<T, N>*>(p) = pack;
}

// True when `p` can be accessed `bytes` at a time.
__device__ __forceinline__ bool aligned_to(void const* p, unsigned bytes) {
  return (reinterpret_cast<unsigned long long>(p) & (bytes - 1ull)) == 0ull;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

#ifndef __CUDACC_RTC__
// The stream a strategy's launcher launches on: the caller's, when the task's launcher takes a
// cudaStream_t (kopt's adapter sets it around the call, docs/strategies.md "Binding"), else stream 0
// (the per-thread default stream under kopt's --default-stream per-thread).
inline cudaStream_t& launch_stream_slot() {
  static thread_local cudaStream_t stream = nullptr;
  return stream;
}
inline cudaStream_t launch_stream() { return launch_stream_slot(); }
// Sets the launch stream for its lifetime (the adapter's call of the strategy's launcher).
struct LaunchStreamScope {
  explicit LaunchStreamScope(cudaStream_t stream) : previous(launch_stream_slot()) {
    launch_stream_slot() = stream;
  }
  ~LaunchStreamScope() { launch_stream_slot() = previous; }
  LaunchStreamScope(LaunchStreamScope const&) = delete;
  LaunchStreamScope& operator=(LaunchStreamScope const&) = delete;
  cudaStream_t previous;
};
#endif

}  // namespace kopt_strategy
#define KOPT_LOG_SOFTMAX 1
#line 1 "softmax_block_per_row.cu"
// Strategy softmax_block_per_row:
// row softmax (row_softmax family): y = exp(x - max) / sum(exp(x - max)) per row of an N x C matrix.
// One block of THREADS threads per row: threads stride over the row with 16-byte accesses (4 floats or
// 8 bf16; element accesses when C is not a multiple or a buffer is unaligned), UNROLL accesses in flight
// per thread, reduce with warp shuffles and then across the block's warps through shared memory. The
// statistics take one pass (online max and rescaled sum for softmax-like rows, shifted sum and sum of
// squares for LayerNorm); rows that need an output pass re-read the row, mostly from L1/L2. Meant for
// wide rows (thousands to hundreds of thousands of columns) and few rows.
//
// kopt:knob THREADS = [64, 128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// At most 2048 accesses per block sweep (keeps 1024-thread blocks within their 64 registers per thread):
// kopt:constraint THREADS * UNROLL <= 2048
// kopt:launch grid=(batch_size) block=(256) kernel=kopt_kernel_forward args=(out, x, batch_size, dim)

// Defaults, so that the file also compiles on its own.
#ifndef THREADS
#define THREADS 256
#endif
#ifndef UNROLL
#define UNROLL 2
#endif

// How the shared row code below is used by this strategy.
#define KOPT_GROUP THREADS
#define KOPT_ROWS 1
#define KOPT_ITEMS 0
#define KOPT_UNROLL UNROLL
#define KOPT_ONLINE 1
#define KOPT_MAX_THREADS THREADS
// Row machinery shared by every row-wise strategy of this folder (spliced in by kopt:include lines,
// docs/strategies.md): thread groups per row, vector loads, reductions across a group.

namespace kopt_rows {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

constexpr int kMaxWarps = 32;

// Elements per access: 16 bytes (a float4 or eight bf16), or 8 bytes when Items is not a multiple of it.
template <typename T, int Items>
struct Access {
  static constexpr int kPack = 16 / static_cast<int>(sizeof(T));
  static constexpr int kVec = Items % kPack == 0 ? kPack : (Items % 4 == 0 ? 4 : (Items % 2 == 0 ? 2 : 1));
};

__device__ __forceinline__ float negative_infinity() {
  return -__int_as_float(0x7f800000);
}

// The threads that share one row: `size` threads (whole warps) of which this one is `lane`; `slot` is the
// row's index in the block (its shared-memory slot).
struct Group {
  int lane;
  int size;
  int warp;
  int warps;
  int slot;
};

// One slot per (row, warp) for combining the warps of a row.
template <int Rows>
struct Scratch {
  float first[Rows][kMaxWarps];
  float second[Rows][kMaxWarps];
};

// Loads the V elements of one access at row[first..first+V) into dst: one vector access when `vec`
// (then the whole access is inside the row), else element by element with `fill` past the row's end.
template <typename T, int V>
__device__ __forceinline__ void load_chunk(const T* row, int first, int C, bool vec, float (&dst)[V],
                                           float fill) {
  if (vec) {
    auto const pack = kopt_strategy::load_pack<T, V>(row + first);
#pragma unroll
    for (int e = 0; e < V; ++e) dst[e] = to_float(pack.v[e]);
  } else {
#pragma unroll
    for (int e = 0; e < V; ++e) dst[e] = first + e < C ? to_float(row[first + e]) : fill;
  }
}

template <typename T, int V>
__device__ __forceinline__ void store_chunk(T* row, int first, int C, bool vec, float const (&src)[V]) {
  if (vec) {
    kopt_strategy::Pack<T, V> pack;
#pragma unroll
    for (int e = 0; e < V; ++e) pack.v[e] = from_float<T>(src[e]);
    kopt_strategy::store_pack<T, V>(row + first, pack);
  } else {
#pragma unroll
    for (int e = 0; e < V; ++e) {
      if (first + e < C) row[first + e] = from_float<T>(src[e]);
    }
  }
}

// One thread's share of a register-resident row, Chunks accesses of V elements: as floats (Packed false),
// or as the element type's raw packs (Packed true: half the registers for BF16, each value widened where it
// is used, so a warp can hold a longer row). Padding (past the row, or a row that is not live) reads as 0.
template <typename T, int V, int Chunks, bool Packed>
struct RowCache;

template <typename T, int V, int Chunks>
struct RowCache<T, V, Chunks, false> {
  float v[Chunks][V];
  __device__ __forceinline__ void load(int j, const T* row, int c, int chunks, int C, bool vec, bool live) {
    if (live && c < chunks) {
      load_chunk<T, V>(row, c * V, C, vec, v[j], 0.0f);
    } else {
#pragma unroll
      for (int e = 0; e < V; ++e) v[j][e] = 0.0f;
    }
  }
  __device__ __forceinline__ float at(int j, int e) const { return v[j][e]; }
};

template <typename T, int V, int Chunks>
struct RowCache<T, V, Chunks, true> {
  kopt_strategy::Pack<T, V> v[Chunks];
  __device__ __forceinline__ void load(int j, const T* row, int c, int chunks, int C, bool vec, bool live) {
    if (live && c < chunks && vec) {
      v[j] = kopt_strategy::load_pack<T, V>(row + c * V);
    } else {
#pragma unroll
      for (int e = 0; e < V; ++e) {
        v[j].v[e] = live && c < chunks && c * V + e < C ? row[c * V + e] : from_float<T>(0.0f);
      }
    }
  }
  __device__ __forceinline__ float at(int j, int e) const {
    if constexpr (sizeof(T) == 2 && V % 2 == 0) {
      // A BF16 value widened by a shift or a mask of its 32-bit pair, in volatile asm so that the compiler
      // widens it again at each use instead of keeping every widened value live (twice the registers).
      unsigned const pair = reinterpret_cast<unsigned const*>(v[j].v)[e / 2];
      unsigned bits;
      if (e % 2 == 0) {
        asm volatile("shl.b32 %0, %1, 16;" : "=r"(bits) : "r"(pair));
      } else {
        asm volatile("and.b32 %0, %1, 0xffff0000;" : "=r"(bits) : "r"(pair));
      }
      return __uint_as_float(bits);
    } else {
      return to_float(v[j].v[e]);
    }
  }
};

// Sums K (1 or 2) values over the group; every thread of the group gets the same totals. With more than
// one warp per row this synchronises the block, so every thread of the block must call it (MultiWarp is
// false when the group is one warp at compile time: no barrier at all).
template <bool MultiWarp, int Rows, int K>
__device__ __forceinline__ void group_sum(float (&v)[K], Scratch<Rows>& scratch, Group const& g) {
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = kopt_strategy::warp_sum(v[k]);
  if (MultiWarp && g.warps > 1) {
    if (g.lane % 32 == 0) {
      scratch.first[g.slot][g.warp] = v[0];
      if (K > 1) scratch.second[g.slot][g.warp] = v[K - 1];
    }
    __syncthreads();
    float total[K];
#pragma unroll
    for (int k = 0; k < K; ++k) total[k] = 0.0f;
    for (int w = 0; w < g.warps; ++w) {
      total[0] += scratch.first[g.slot][w];
      if (K > 1) total[K - 1] += scratch.second[g.slot][w];
    }
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = total[k];
    __syncthreads();  // the scratch may be reused by the next reduction
  }
}

// FixedGroup threads per row (a compile-time warp or block), or blockDim.x / Rows when FixedGroup is 0.
template <int FixedGroup, int Rows>
__device__ __forceinline__ Group make_group() {
  int const size = FixedGroup > 0 ? FixedGroup : static_cast<int>(blockDim.x) / Rows;
  int const t = static_cast<int>(threadIdx.x);
  int const lane = t % size;
  return Group{lane, size, lane / 32, size / 32, t / size};
}

// The online-softmax state shared by the softmax and cross-entropy strategies of this folder (spliced in
// by kopt:include lines, docs/strategies.md).
// Online softmax state: the running maximum m and the sum s of exp(x - m) over the values seen.
// Merging is safe when either maximum is -inf.
__device__ __forceinline__ void merge(float& m, float& s, float other_m, float other_s) {
  float const merged = fmaxf(m, other_m);
  float const scale = m == merged ? 1.0f : expf(m - merged);
  float const other_scale = other_m == merged ? 1.0f : expf(other_m - merged);
  s = s * scale + other_s * other_scale;
  m = merged;
}

// Adds one access worth of values (at least one of them from the row; the others are -inf).
template <int V>
__device__ __forceinline__ void accumulate_online(float& m, float& s, float const (&x)[V]) {
  float local = x[0];
#pragma unroll
  for (int e = 1; e < V; ++e) local = fmaxf(local, x[e]);
  if (local > m) {
    s *= expf(m - local);
    m = local;
  }
#pragma unroll
  for (int e = 0; e < V; ++e) s += expf(x[e] - m);
}

// Merges the (m, s) states of the group (same contract as group_sum).
template <bool MultiWarp, int Rows>
__device__ __forceinline__ void group_max_sum(float& m, float& s, Scratch<Rows>& scratch, Group const& g) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    float const other_m = __shfl_xor_sync(0xffffffffu, m, offset);
    float const other_s = __shfl_xor_sync(0xffffffffu, s, offset);
    merge(m, s, other_m, other_s);
  }
  if (MultiWarp && g.warps > 1) {
    if (g.lane % 32 == 0) {
      scratch.first[g.slot][g.warp] = m;
      scratch.second[g.slot][g.warp] = s;
    }
    __syncthreads();
    m = negative_infinity();
    s = 0.0f;
    for (int w = 0; w < g.warps; ++w) merge(m, s, scratch.first[g.slot][w], scratch.second[g.slot][w]);
    __syncthreads();
  }
}

// The maximum over the group (same contract as group_sum).
template <bool MultiWarp, int Rows>
__device__ __forceinline__ float group_max(float m, Scratch<Rows>& scratch, Group const& g) {
  m = kopt_strategy::warp_max(m);
  if (MultiWarp && g.warps > 1) {
    if (g.lane % 32 == 0) scratch.first[g.slot][g.warp] = m;
    __syncthreads();
    for (int w = 0; w < g.warps; ++w) m = fmaxf(m, scratch.first[g.slot][w]);
    __syncthreads();
  }
  return m;
}

// The row machinery shared by the softmax strategies of this folder (spliced into each by `// kopt:include`,
// docs/strategies.md): everything after the knob configuration, which each template sets with macros.
// KOPT_LOG_SOFTMAX = 1 (the log_softmax strategies, row_log_softmax family) writes the logarithm of the
// softmax instead, y = x - max - log(sum(exp(x - max))), from the same statistics.
#ifndef KOPT_LOG_SOFTMAX
#define KOPT_LOG_SOFTMAX 0
#endif

// What the output of a row needs besides each value: 1 / sum for the softmax, max + log(sum) for its log.
__device__ __forceinline__ float finish_constant(float m, float s) {
  return KOPT_LOG_SOFTMAX ? m + logf(s) : 1.0f / s;
}
// One output value from its input x, the row's max m and finish_constant(m, s).
__device__ __forceinline__ float finish_value(float x, float m, float k) {
  return KOPT_LOG_SOFTMAX ? x - k : expf(x - m) * k;
}

// Softmax of one row of C values: y = exp(x - max) / sum(exp(x - max)). `live` is false for a padding
// row of the block (it only takes part in the reductions). Items > 0: when the group's Items values per
// thread cover the row, it is read once into registers; otherwise it is streamed twice (statistics,
// then the output), Unroll accesses in flight per thread.
template <typename T, bool MultiWarp, int Rows, int Items, int Unroll, bool Online>
__device__ __forceinline__ void softmax_row(T* __restrict__ y, const T* __restrict__ x, int C, bool live,
                                            bool aligned, Scratch<Rows>& scratch, Group const& g) {
  constexpr int V = Access<T, (Items > 0 ? Items : 16)>::kVec;
  bool const vec = aligned && C % V == 0;
  int const chunks = (C + V - 1) / V;
  float m = negative_infinity();
  float s = 0.0f;
  if (Items > 0 && g.size * (Items > 0 ? Items : 1) >= C) {
    constexpr int kChunks = Items > 0 ? Items / V : 1;
    float cache[kChunks][V];
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      if (live && c < chunks) {
        load_chunk<T, V>(x, c * V, C, vec, cache[j], negative_infinity());
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) cache[j][e] = negative_infinity();
      }
    }
    if (Online) {
#pragma unroll
      for (int j = 0; j < kChunks; ++j) {
        if (live && j * g.size + g.lane < chunks) accumulate_online<V>(m, s, cache[j]);
      }
      group_max_sum<MultiWarp, Rows>(m, s, scratch, g);
    } else {
#pragma unroll
      for (int j = 0; j < kChunks; ++j) {
#pragma unroll
        for (int e = 0; e < V; ++e) m = fmaxf(m, cache[j][e]);
      }
      m = group_max<MultiWarp, Rows>(m, scratch, g);
      float sum[1] = {0.0f};
      if (live) {
#pragma unroll
        for (int j = 0; j < kChunks; ++j) {
#pragma unroll
          for (int e = 0; e < V; ++e) sum[0] += expf(cache[j][e] - m);  // padding: exp(-inf) = 0
        }
      }
      group_sum<MultiWarp, Rows, 1>(sum, scratch, g);
      s = sum[0];
    }
    if (!live) return;
    float const k = finish_constant(m, s);
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      if (c < chunks) {
        float out[V];
#pragma unroll
        for (int e = 0; e < V; ++e) out[e] = finish_value(cache[j][e], m, k);
        store_chunk<T, V>(y, c * V, C, vec, out);
      }
    }
    return;
  }
  // Streaming: one online pass for the statistics, a second pass (mostly from L1/L2) for the output.
  for (int base = g.lane; live && base < chunks; base += g.size * Unroll) {
    float v[Unroll][V];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks)
        load_chunk<T, V>(x, (base + u * g.size) * V, C, vec, v[u], negative_infinity());
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) accumulate_online<V>(m, s, v[u]);
    }
  }
  group_max_sum<MultiWarp, Rows>(m, s, scratch, g);
  if (!live) return;
  float const k = finish_constant(m, s);
  for (int base = g.lane; base < chunks; base += g.size * Unroll) {
    float v[Unroll][V];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) load_chunk<T, V>(x, (base + u * g.size) * V, C, vec, v[u], 0.0f);
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) {
#pragma unroll
        for (int e = 0; e < V; ++e) v[u][e] = finish_value(v[u][e], m, k);
        store_chunk<T, V>(y, (base + u * g.size) * V, C, vec, v[u]);
      }
    }
  }
}

}  // namespace kopt_rows

extern "C" __global__ void __launch_bounds__(KOPT_MAX_THREADS)
    kopt_kernel_forward(float* __restrict__ out, const float* __restrict__ in, int N,
                        int C) {
  using namespace kopt_rows;
  constexpr bool kMultiWarp = KOPT_GROUP != 32;
  __shared__ Scratch<KOPT_ROWS> scratch;
  Group const g = make_group<KOPT_GROUP, KOPT_ROWS>();
  int const row = static_cast<int>(blockIdx.x) * KOPT_ROWS + g.slot;
  bool const live = row < N;
  if (!kMultiWarp && !live) return;  // no block barriers when a row is one warp
  long long const offset = static_cast<long long>(live ? row : 0) * C;
  bool const aligned = kopt_strategy::aligned_to(in, 16) && kopt_strategy::aligned_to(out, 16);
  softmax_row<float, kMultiWarp, KOPT_ROWS, KOPT_ITEMS, KOPT_UNROLL, KOPT_ONLINE != 0>(
      out + offset, in + offset, C, live, aligned, scratch, g);
}


// The task's launcher, generated by kopt export from the // kopt:launch line above.
static inline long long kopt_ceil_div(long long a, long long b) { return (a + b - 1) / b; }
static inline long long kopt_min(long long a, long long b) { return a < b ? a : b; }
static inline long long kopt_max(long long a, long long b) { return a > b ? a : b; }
static inline long long kopt_abs(long long a) { return a < 0 ? -a : a; }
extern "C" void forward(const float* x, float* out, int batch_size, int dim) {
  dim3 const kopt_grid((unsigned int)(batch_size));
  dim3 const kopt_block((unsigned int)(256));
  kopt_kernel_forward<<<kopt_grid, kopt_block, (size_t)(0)>>>(out, x, batch_size, dim);
}
'''

_KOPT_WRAPPER_HEAD = r'''// ---- kopt export: the wrapper's headers (the kernel of task log_softmax_fp32 follows) ----
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/types.h>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>
// ---- the kernel kopt found ----
'''

_KOPT_WRAPPER_BODY = r'''
// ---- kopt export: the wrapper PyTorch calls ----
extern "C" void forward(const float* x, float* out, int batch_size, int dim);

namespace kopt_export {
inline int64_t div(int64_t a, int64_t b) {
  TORCH_CHECK(b != 0, "kopt_forward: division by zero in a shape expression");
  return a / b;
}
inline int64_t mod(int64_t a, int64_t b) { return a - b * div(a, b); }
inline int64_t ceil_div(int64_t a, int64_t b) {
  int64_t const q = div(a, b);
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}
inline int64_t abs(int64_t a) { return a < 0 ? -a : a; }

inline void check_tensor(torch::Tensor const& t, char const* name, torch::ScalarType dtype, int64_t numel,
                         char const* shape, torch::Device device) {
  TORCH_CHECK(t.is_cuda(), "kopt_forward: tensor ", name, " must be on a CUDA device (it is on ", t.device(), ")");
  TORCH_CHECK(t.device() == device, "kopt_forward: tensor ", name, " is on ", t.device(), "; the first tensor on ",
              device);
  TORCH_CHECK(t.scalar_type() == dtype, "kopt_forward: tensor ", name, " must be ", dtype, " (it is ",
              t.scalar_type(), ")");
  TORCH_CHECK(t.is_contiguous(), "kopt_forward: tensor ", name, " must be contiguous");
  TORCH_CHECK(t.numel() == numel, "kopt_forward: tensor ", name, " has ", t.numel(), " elements; expected ",
              numel, " (shape ", shape, " at these sizes)");
}

inline void check_size(int64_t value, char const* name, int bits) {
  int64_t const top = bits >= 63 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << bits) - 1;
  TORCH_CHECK(value >= 0 && value <= top, "kopt_forward: size ", name, " = ", value,
              " does not fit the launcher's integer type");
}

// Two events per device and thread, made once: the launcher's per-thread default stream waits for
// PyTorch's current stream before the call, and PyTorch's stream waits for it after the call.
struct StreamEvents {
  cudaEvent_t before = nullptr;
  cudaEvent_t after = nullptr;
};
inline StreamEvents& events(int device) {
  thread_local std::vector<StreamEvents> cache;
  if (cache.size() <= static_cast<std::size_t>(device)) cache.resize(static_cast<std::size_t>(device) + 1);
  StreamEvents& e = cache[static_cast<std::size_t>(device)];
  if (e.before == nullptr) {
    C10_CUDA_CHECK(cudaEventCreateWithFlags(&e.before, cudaEventDisableTiming));
    C10_CUDA_CHECK(cudaEventCreateWithFlags(&e.after, cudaEventDisableTiming));
  }
  return e;
}
}  // namespace kopt_export

std::vector<torch::Tensor> kopt_forward(std::vector<torch::Tensor> tensors, std::vector<int64_t> sizes) {
  TORCH_CHECK(tensors.size() == 1, "kopt_forward (log_softmax_fp32): expected 1 tensors (x), got ", tensors.size());
  TORCH_CHECK(sizes.size() == 2, "kopt_forward (log_softmax_fp32): expected 2 sizes (batch_size, dim), got ", sizes.size());
  int64_t const s_batch_size = sizes[0];
  kopt_export::check_size(s_batch_size, "batch_size", 31);
  int64_t const s_dim = sizes[1];
  kopt_export::check_size(s_dim, "dim", 31);
  torch::Device const device = tensors.empty() ? torch::Device(torch::kCUDA, c10::cuda::current_device())
                                               : tensors[0].device();
  TORCH_CHECK(device.is_cuda(), "kopt_forward: tensors must be on a CUDA device (the first is on ", device, ")");
  c10::cuda::CUDAGuard const guard(device);
  torch::Tensor const& t_x = tensors[0];
  kopt_export::check_tensor(t_x, "x", torch::kFloat32, s_batch_size * s_dim, "[batch_size, dim]", device);
  auto const options = torch::TensorOptions().device(device);
  torch::Tensor t_out = torch::empty(std::vector<int64_t>{s_batch_size, s_dim}, options.dtype(torch::kFloat32));
  cudaStream_t const stream = c10::cuda::getCurrentCUDAStream(device.index()).stream();
  bool const join = stream != cudaStreamPerThread;
  kopt_export::StreamEvents& ev = kopt_export::events(device.index());
  if (join) {
    C10_CUDA_CHECK(cudaEventRecord(ev.before, stream));
    C10_CUDA_CHECK(cudaStreamWaitEvent(cudaStreamPerThread, ev.before, 0));
  }
  forward(reinterpret_cast<const float*>(t_x.data_ptr()),
      reinterpret_cast<float*>(t_out.data_ptr()),
      static_cast<int>(s_batch_size),
      static_cast<int>(s_dim));
  cudaError_t const launched = cudaGetLastError();
  TORCH_CHECK(launched == cudaSuccess, "kopt_forward (log_softmax_fp32): the kernel's launcher left a CUDA error: ",
              cudaGetErrorString(launched));
  if (join) {
    C10_CUDA_CHECK(cudaEventRecord(ev.after, cudaStreamPerThread));
    C10_CUDA_CHECK(cudaStreamWaitEvent(stream, ev.after, 0));
  }
  return {t_out};
}
'''


def _kopt_tdiv(a, b):
    """a / b truncated toward zero, as C and kopt's expressions divide."""
    if b == 0:
        raise ZeroDivisionError("kopt shape expression: division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _kopt_tmod(a, b):
    """The remainder of `_kopt_tdiv` (the sign of a, as in C)."""
    return a - b * _kopt_tdiv(a, b)


def _kopt_ceil_div(a, b):
    """kopt's ceil_div(a, b): the quotient rounded up."""
    if b == 0:
        raise ZeroDivisionError("kopt shape expression: division by zero")
    return -((-a) // b)


def _kopt_solve_sizes(plan, tensors, names):
    """The size parameters' values: plan[i] is ("dim", tensor position, dimension, rank) or ("const", value).

    A "dim" entry reads the parameter off that dimension of the gathered tensor (whose ABI rank is
    `rank`); a "const" entry is the problem's constant (the C++ wrapper then checks every tensor's element
    count against it). `names` are the tensors' ABI names, for the messages.
    """
    sizes = []
    for entry in plan:
        if entry[0] == "const":
            sizes.append(entry[1])
            continue
        _, pos, dim, rank = entry
        t = tensors[pos]
        if t.dim() != rank:
            raise ValueError(f"ModelNew: tensor {names[pos]} has {t.dim()} dimensions "
                             f"{tuple(t.shape)}; the kernel expects {rank}")
        sizes.append(t.shape[dim])
    return sizes


def _kopt_compare(got, ref, atol, rtol, mismatch_fraction):
    """kopt's output check (docs/task-format.md, "[tolerance]") of one output: (passed, report).

    An element passes when |got - ref| <= atol * max|ref| + rtol * |ref| (max|ref| over the finite
    reference values), or both are NaN, or both are the same infinity; the output passes when at most
    mismatch_fraction of its elements fail and it is not constant where the reference is not.
    """
    if tuple(got.shape) != tuple(ref.shape):
        return False, f"shape {tuple(got.shape)}, expected {tuple(ref.shape)}"
    g = got.detach().to("cpu", _kopt_torch.float64).reshape(-1)
    r = ref.detach().to("cpu", _kopt_torch.float64).reshape(-1)
    n = r.numel()
    if n == 0:
        return True, "empty"
    finite = _kopt_torch.isfinite(r)
    scale = float(r[finite].abs().max()) if bool(finite.any()) else 0.0
    diff = (g - r).abs()
    ok = diff <= atol * max(scale, 1e-30) + rtol * r.abs()
    ok = ok | (_kopt_torch.isnan(g) & _kopt_torch.isnan(r)) | (_kopt_torch.isinf(r) & (g == r))
    bad = int((~ok).sum())
    both = _kopt_torch.isfinite(g) & finite
    max_abs = float(diff[both].max()) if bool(both.any()) else 0.0
    max_rel = float((diff[both] / r[both].abs().clamp_min(1e-30)).max()) if bool(both.any()) else 0.0
    constant = n > 1 and bool((g == g[0]).all()) and not bool((r == r[0]).all())
    passed = bad <= mismatch_fraction * n and not constant
    report = (f"max abs err {max_abs:.3g}, max rel err {max_rel:.3g}, {bad} of {n} elements outside "
              f"atol {atol:g} x scale {scale:.3g}, rtol {rtol:g}")
    if constant:
        report += "; constant where the reference is not"
    return passed, report


def _kopt_output_shapes(s):
    """The outputs' shapes at the size parameters s (a list in _KOPT_SIZE_NAMES order)."""
    return [(s[0], s[1], )]


_kopt_extension = None


def _kopt_load(verbose=False):
    """The compiled extension (built by load_inline at the first call; PyTorch caches the build)."""
    global _kopt_extension
    if _kopt_extension is None:
        from torch.utils.cpp_extension import load_inline

        _kopt_extension = load_inline(
            name=_KOPT_EXTENSION,
            cpp_sources=[_KOPT_CPP_DECLARATION],
            cuda_sources=[_KOPT_WRAPPER_HEAD, _KOPT_KERNEL_SOURCE, _KOPT_WRAPPER_BODY],
            functions=["kopt_forward"],
            extra_cflags=list(_KOPT_CXX_CFLAGS),
            extra_cuda_cflags=list(_KOPT_CUDA_CFLAGS),
            verbose=verbose,
        )
    return _kopt_extension


def register():
    """Register torch.ops.kopt.<_KOPT_NAME>(Tensor[] tensors, SymInt[] sizes) -> Tensor[] (idempotent).

    A second export under the same name (another kernel) in the same process is refused: export it with
    another --name.
    """
    registry = _kopt_sys.modules.get("_kopt_registered_ops")
    if registry is None:
        registry = _kopt_types.ModuleType("_kopt_registered_ops")
        registry.ops = {}
        _kopt_sys.modules["_kopt_registered_ops"] = registry
    known = registry.ops.get(_KOPT_NAME)
    if known is not None:
        if known != _KOPT_EXTENSION:
            raise RuntimeError(f"torch.ops.kopt.{_KOPT_NAME} is already registered by another export "
                               f"({known}); export this kernel with another --name")
        return

    def impl(tensors, sizes):
        return _kopt_load().kopt_forward(list(tensors), [int(v) for v in sizes])

    op = _kopt_torch.library.custom_op("kopt::" + _KOPT_NAME, impl, mutates_args=(),
                                       schema="(Tensor[] tensors, SymInt[] sizes) -> Tensor[]")

    def fake(tensors, sizes):
        device = tensors[0].device if len(tensors) else _kopt_torch.device("cuda")
        return [_kopt_torch.empty(shape, dtype=dtype, device=device)
                for shape, dtype in zip(_kopt_output_shapes(list(sizes)), _KOPT_OUTPUT_DTYPES)]

    op.register_fake(fake)
    registry.ops[_KOPT_NAME] = _KOPT_EXTENSION


register()


def _kopt_state_tensor(module, kind, key):
    """The parameter or buffer `key` of `module` (its state_dict key), detached."""
    prefix, _, attr = key.rpartition(".")
    try:
        value = getattr(module.get_submodule(prefix), attr)
    except AttributeError:
        value = None
    if not isinstance(value, _kopt_torch.Tensor):
        table = dict(module.state_dict(keep_vars=True))
        table.update(dict(module.named_buffers()))
        value = table.get(key)
        if not isinstance(value, _kopt_torch.Tensor):
            raise KeyError(f"ModelNew: the module has no {kind} {key!r} (the kernel takes it)")
    return value.detach()


def _kopt_prepare(module, inputs):
    """The kernel's tensors (contiguous, floating ones at the task's precision) and its sizes."""
    if len(inputs) != _KOPT_N_INPUTS:
        raise TypeError(f"ModelNew.forward: expected {_KOPT_N_INPUTS} inputs (what get_inputs() returns), "
                        f"got {len(inputs)}")
    for index, value in _KOPT_FIXED.items():
        if isinstance(inputs[index], _kopt_torch.Tensor) or inputs[index] != value:
            raise ValueError(f"ModelNew.forward: input {index} is {inputs[index]!r}; the kernel was built for "
                             f"{value!r} (the problem's value)")
    tensors = []
    for index, name in _KOPT_INPUTS:
        t = inputs[index]
        if not isinstance(t, _kopt_torch.Tensor):
            raise TypeError(f"ModelNew.forward: input {index} ({name}) is a {type(t).__name__}; expected a tensor")
        tensors.append(t.detach())
    for kind, key, _name in _KOPT_STATE:
        tensors.append(_kopt_state_tensor(module, kind, key))
    sizes = _kopt_solve_sizes(_KOPT_SIZE_PLAN, tensors, _KOPT_NAMES)
    ready = []
    for t, dtype, floating in zip(tensors, _KOPT_DTYPES, _KOPT_FLOATING):
        if floating and t.dtype != dtype and t.is_floating_point():
            t = t.to(dtype)
        elif dtype == _kopt_torch.uint8 and t.dtype == _kopt_torch.bool:
            t = t.contiguous().view(_kopt_torch.uint8)
        ready.append(t.contiguous())
    return ready, sizes


class ModelNew(Model):
    """Model with its forward computed by the kernel kopt found (inference only).

    The constructor is Model's: the same parameters and buffers, created in the same order, so a seeded
    construction gives the same weights. forward(*inputs) takes what get_inputs() returns.
    """

    def forward(self, *inputs):
        tensors, sizes = _kopt_prepare(self, inputs)
        if _kopt_torch.compiler.is_compiling():
            outs = getattr(_kopt_torch.ops.kopt, _KOPT_NAME)(tensors, sizes)
        else:
            outs = _kopt_load().kopt_forward(tensors, sizes)
        if _KOPT_SINGLE_OUTPUT:
            return outs[0]
        return tuple(outs[i] for i in _KOPT_RETURN_ORDER)


def _kopt_time_ms(fn, args, warmup=5, samples=20):
    """Median milliseconds of one call (CUDA events around each call), after `warmup` calls."""
    with _kopt_torch.no_grad():
        for _ in range(warmup):
            fn(*args)
        _kopt_torch.cuda.synchronize()
        times = []
        for _ in range(samples):
            start = _kopt_torch.cuda.Event(enable_timing=True)
            end = _kopt_torch.cuda.Event(enable_timing=True)
            start.record()
            fn(*args)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
    return _kopt_statistics.median(times)


def _kopt_check(verbose=False):
    """Model against ModelNew on get_inputs() at the task's precision: errors, tolerance, timing. 0 or 1."""
    T = _kopt_torch
    if not T.cuda.is_available():
        print(f"{_KOPT_NAME}: --check needs a CUDA GPU (torch.cuda.is_available() is False)")
        return 1
    T.backends.cuda.matmul.allow_tf32 = False
    T.backends.cudnn.allow_tf32 = False
    device = T.device("cuda")
    low = T.bfloat16 if _KOPT_PRECISION == "bf16" else None
    init = get_init_inputs()
    T.manual_seed(0)
    reference = Model(*init).to(device).eval()
    T.manual_seed(0)
    model = ModelNew(*init).to(device).eval()
    T.manual_seed(1)
    inputs = list(get_inputs())
    ref_inputs, new_inputs = [], []
    for x in inputs:
        if isinstance(x, T.Tensor):
            x = x.to(device)
            if low is not None and x.is_floating_point():
                ref_inputs.append(x.to(low).to(x.dtype))  # BF16 values, computed in FP32
                new_inputs.append(x.to(low))
                continue
        ref_inputs.append(x)
        new_inputs.append(x)
    if low is not None:
        model = model.to(low)
        with T.no_grad():
            for t in list(reference.parameters()) + list(reference.buffers()):
                if t.is_floating_point():
                    t.copy_(t.to(low).to(t.dtype))
    print(f"{_KOPT_NAME}: building the extension {_KOPT_EXTENSION} (nvcc; cached after the first build)")
    _kopt_load(verbose=verbose)
    with T.no_grad():
        ref_out = reference(*ref_inputs)
        new_out = model(*new_inputs)
    T.cuda.synchronize()
    refs = list(ref_out) if isinstance(ref_out, (tuple, list)) else [ref_out]
    news = list(new_out) if isinstance(new_out, (tuple, list)) else [new_out]
    ok = len(refs) == len(news)
    if not ok:
        print(f"{_KOPT_NAME}: Model returned {len(refs)} outputs, ModelNew {len(news)}")
    tolerance = [_KOPT_TOLERANCE[i] for i in _KOPT_RETURN_ORDER]
    for k, (r, g, tol) in enumerate(zip(refs, news, tolerance)):
        if low is not None and r.is_floating_point():
            r = r.to(low)  # the task's reference: FP32 arithmetic, rounded to BF16 once at the end
        passed, report = _kopt_compare(g, r, tol["atol"], tol["rtol"], tol["mismatch_fraction"])
        ok = ok and passed
        print(f"output {k}: {'ok' if passed else 'WRONG'}: {report}")
    eager = reference
    eager_inputs = ref_inputs
    if low is not None:
        eager = _kopt_copy.deepcopy(reference).to(low).eval()
        eager_inputs = new_inputs
    t_ref = _kopt_time_ms(eager, eager_inputs)
    t_new = _kopt_time_ms(model, new_inputs)
    print(f"time, median of 20 calls after 5 warm-up calls (CUDA events), TF32 off: Model (eager, "
          f"{_KOPT_PRECISION}) {t_ref:.4f} ms, ModelNew {t_new:.4f} ms ({t_ref / t_new:.2f}x)")
    print(f"{_KOPT_NAME}: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    _kopt_args = _kopt_sys.argv[1:]
    if _kopt_args and _kopt_args[0] == "--check" and set(_kopt_args[1:]) <= {"--verbose"}:
        _kopt_sys.exit(_kopt_check(verbose="--verbose" in _kopt_args))
    print(f"usage: python {_kopt_sys.argv[0]} --check [--verbose]   (compare ModelNew with Model on a GPU)",
          file=_kopt_sys.stderr)
    _kopt_sys.exit(2)
