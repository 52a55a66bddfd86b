// Shared by suites/llm/rope_interleaved-f32 and rope_interleaved-bf16: rotary position embedding,
// INTERLEAVED convention (GPT-J / Meta's original LLaMA / torch.view_as_complex: a rotation pair is two
// adjacent elements; not the half-split NeoX pairs of rope-common.cuh). x is S x H x D row-major (tokens,
// heads, head dim; D even); cos and sin are S x D/2 tables (token t's angles; their values are taken as
// given, any numbers):
//   out[t][k][2i]     = x[t][k][2i]     * cos[t][i] - x[t][k][2i + 1] * sin[t][i]   for 0 <= i < D/2
//   out[t][k][2i + 1] = x[t][k][2i + 1] * cos[t][i] + x[t][k][2i]     * sin[t][i]
// One thread per output element, out of place. The products are taken in double and each output is
// rounded once, so the reference is the accurate side of every comparison. Naive on purpose but
// obviously correct.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_rope_interleaved {

using namespace kopt_suite;

template <typename T>
__global__ void rope_interleaved_reference_kernel(T* out, const T* x, const T* cos_table, const T* sin_table,
                                                  int S, int H, int D) {
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const total = static_cast<long long>(S) * H * D;
  if (index >= total) return;
  int const half = D / 2;
  int const d = static_cast<int>(index % D);
  long long const t = index / (static_cast<long long>(H) * D);
  long long const pair_start = index - (d % 2);  // x[t][k][2i]
  int const i = d / 2;                           // angle index
  double const c = to_double(cos_table[t * half + i]);
  double const s = to_double(sin_table[t * half + i]);
  double const even = to_double(x[pair_start]);
  double const odd = to_double(x[pair_start + 1]);
  store(&out[index], d % 2 == 0 ? even * c - odd * s : odd * c + even * s);
}

template <typename T>
void launch(T* out, const T* x, const T* cos_table, const T* sin_table, int S, int H, int D) {
  long long const total = static_cast<long long>(S) * H * D;
  if (total <= 0 || D % 2 != 0) return;
  int const block = 256;
  auto const grid = static_cast<unsigned int>((total + block - 1) / block);
  rope_interleaved_reference_kernel<<<grid, block>>>(out, x, cos_table, sin_table, S, H, D);
}

}  // namespace llm_rope_interleaved
