// Shared by suites/llm/attention-{f32,bf16}, attention_causal-{f32,bf16}, attention_scaled-{f32,bf16} and
// attention_cross-{f32,bf16}: scaled dot-product attention
// per (batch * head), Q, K, V and O laid out [BH][S][D] (row-major, D contiguous):
//   O[b][i][:] = sum_j P[b][i][j] * V[b][j][:],  P[b][i][:] = softmax_j(scale * Q[b][i][:] . K[b][j][:]),
// scale = 1/sqrt(D) unless the task passes its own (attention_scaled-*); the causal variant lets query i see
// keys j <= i only (the others get probability 0). attention_cross-* have S_kv keys and values per slice
// (K and V [BH][S_kv][D]) for S queries.
// One thread per output row (b, i), in float: the thread keeps its query row and its D output
// accumulators in registers (kMaxD is a compile-time bound on D, so the arrays are fully indexed by
// unrolled loops) and makes two passes over the keys: the row's maximum score, then the exponentials,
// their sum and the weighted sum of V rows. No shared memory, no scratch; the threads of a warp read the
// same K and V rows (broadcast loads). Naive on purpose (scores computed twice, nothing tiled), obviously
// correct. A thread per output element would redo the whole score row for each of the D outputs.
#pragma once
#include <cuda_bf16.h>

#include <cmath>

#include "../common/element.cuh"

namespace llm_attention {

using namespace kopt_suite;

template <typename T, int kMaxD, bool kCausal>
__global__ void attention_reference_kernel(T* O, const T* Q, const T* K, const T* V, int BH, int S, int D,
                                           float scale, int S_kv) {
  long long const row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;  // b * S + i
  if (row >= static_cast<long long>(BH) * S) return;
  long long const b = row / S;
  int const i = static_cast<int>(row % S);
  int const keys = kCausal ? min(i + 1, S_kv) : S_kv;
  const T* k_rows = K + b * S_kv * D;
  const T* v_rows = V + b * S_kv * D;

  float q[kMaxD];
#pragma unroll
  for (int d = 0; d < kMaxD; ++d) q[d] = d < D ? to_float(Q[row * D + d]) : 0.0f;

  // Pass 1: the row's maximum score.
  float max_score = -INFINITY;
  for (int j = 0; j < keys; ++j) {
    float dot = 0.0f;
#pragma unroll
    for (int d = 0; d < kMaxD; ++d)
      if (d < D) dot += q[d] * to_float(k_rows[static_cast<long long>(j) * D + d]);
    max_score = fmaxf(max_score, dot * scale);
  }

  // Pass 2: exponentials, their sum and the weighted sum of the V rows.
  float acc[kMaxD];
#pragma unroll
  for (int d = 0; d < kMaxD; ++d) acc[d] = 0.0f;
  float sum = 0.0f;
  for (int j = 0; j < keys; ++j) {
    float dot = 0.0f;
#pragma unroll
    for (int d = 0; d < kMaxD; ++d)
      if (d < D) dot += q[d] * to_float(k_rows[static_cast<long long>(j) * D + d]);
    float const p = expf(dot * scale - max_score);
    sum += p;
#pragma unroll
    for (int d = 0; d < kMaxD; ++d)
      if (d < D) acc[d] += p * to_float(v_rows[static_cast<long long>(j) * D + d]);
  }

#pragma unroll
  for (int d = 0; d < kMaxD; ++d)
    if (d < D) O[row * D + d] = from_float<T>(acc[d] / sum);
}

// D <= 128 (the suite's sizes use 64 and 128); for a larger head dimension the launcher returns without
// writing O.
// S_kv < 0: the keys' sequence length is S (self-attention); attention_cross-* pass their own.
template <typename T, bool kCausal>
void launch(T* O, const T* Q, const T* K, const T* V, int BH, int S, int D, float scale, int S_kv = -1) {
  if (S_kv < 0) S_kv = S;
  if (BH <= 0 || S <= 0 || S_kv <= 0 || D <= 0 || D > 128) return;
  long long const rows = static_cast<long long>(BH) * S;
  int const block = 128;
  unsigned const grid = static_cast<unsigned>((rows + block - 1) / block);
  if (D <= 64)
    attention_reference_kernel<T, 64, kCausal><<<grid, block>>>(O, Q, K, V, BH, S, D, scale, S_kv);
  else
    attention_reference_kernel<T, 128, kCausal><<<grid, block>>>(O, Q, K, V, BH, S, D, scale, S_kv);
}

// The usual scale, 1/sqrt(D) (correctly rounded in FP32 on the host as on the device).
inline float default_scale(int D) {
  return D > 0 ? 1.0f / std::sqrt(static_cast<float>(D)) : 0.0f;
}

template <typename T, bool kCausal>
void launch(T* O, const T* Q, const T* K, const T* V, int BH, int S, int D) {
  launch<T, kCausal>(O, Q, K, V, BH, S, D, default_scale(D));
}

}  // namespace llm_attention
