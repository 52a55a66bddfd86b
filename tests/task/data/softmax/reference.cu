// Reference softmax: one block per row.
#include <cuda_runtime.h>

/* A block comment mentioning extern "C" void not_this(int x) must be ignored. */
__global__ void softmax_kernel(float* out, const float* in, int N, int C) {
  int row = blockIdx.x;
  if (row >= N) return;
  float m = -INFINITY;
  for (int c = 0; c < C; ++c) m = fmaxf(m, in[row * C + c]);
  float s = 0.f;
  for (int c = 0; c < C; ++c) s += expf(in[row * C + c] - m);
  for (int c = threadIdx.x; c < C; c += blockDim.x) out[row * C + c] = expf(in[row * C + c] - m) / s;
}

// extern "C" void commented_out(float* x);
extern "C" void softmax(float* out, const float* __restrict__ in, int N, int C) {
  softmax_kernel<<<N, 256>>>(out, in, N, C);
}
