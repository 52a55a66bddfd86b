// Shared by suites/llm/rope-f32 and rope-bf16: rotary position embedding, HALF-SPLIT convention
// (GPT-NeoX / Hugging Face LLaMA "rotate_half"; not the interleaved GPT-J pairs). x is S x H x D
// row-major (tokens, heads, head dim; D even, h = D/2); cos and sin are S x h tables (token t's
// angles; their values are taken as given, any numbers):
//   out[t][k][i]     = x[t][k][i]     * cos[t][i] - x[t][k][i + h] * sin[t][i]   for 0 <= i < h
//   out[t][k][i + h] = x[t][k][i + h] * cos[t][i] + x[t][k][i]     * sin[t][i]
// One thread per output element, out of place. The products are taken in double and each output is
// rounded once, so the reference is the accurate side of every comparison. Naive on purpose but
// obviously correct.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_rope {

using namespace kopt_suite;

template <typename T>
__global__ void rope_reference_kernel(T* out, const T* x, const T* cos_table, const T* sin_table, int S,
                                      int H, int D) {
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const total = static_cast<long long>(S) * H * D;
  if (index >= total) return;
  int const half = D / 2;
  int const d = static_cast<int>(index % D);
  long long const t = index / (static_cast<long long>(H) * D);
  long long const head_start = index - d;  // x[t][k][0]
  int const i = d < half ? d : d - half;   // angle index
  double const c = to_double(cos_table[t * half + i]);
  double const s = to_double(sin_table[t * half + i]);
  double const first = to_double(x[head_start + i]);
  double const second = to_double(x[head_start + i + half]);
  store(&out[index], d < half ? first * c - second * s : second * c + first * s);
}

template <typename T>
void launch(T* out, const T* x, const T* cos_table, const T* sin_table, int S, int H, int D) {
  long long const total = static_cast<long long>(S) * H * D;
  if (total <= 0 || D % 2 != 0) return;
  int const block = 256;
  auto const grid = static_cast<unsigned int>((total + block - 1) / block);
  rope_reference_kernel<<<grid, block>>>(out, x, cos_table, sin_table, S, H, D);
}

}  // namespace llm_rope
