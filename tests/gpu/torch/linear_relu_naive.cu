// expect: ok
// defeats: none: an honest kernel checked against PyTorch's FP32 reference (TF32 off)
// mode: launcher
// task: suites/pytorch/level2/linear_relu.py
// suites/pytorch/level2/linear_relu.py, FP32: relu(x W^T + b) with a 16x16 shared-memory tile: honest and
// unremarkable, to check verification against PyTorch's FP32 reference (TF32 off).
#include <cuda_runtime.h>

constexpr int kTile = 16;

__global__ void linear_relu_kernel(float const* __restrict__ x, float const* __restrict__ w,
                                   float const* __restrict__ b, float* __restrict__ out, int m, int k,
                                   int n) {
  __shared__ float xs[kTile][kTile];
  __shared__ float ws[kTile][kTile + 1];
  int const row = blockIdx.y * kTile + threadIdx.y;
  int const col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += kTile) {
    xs[threadIdx.y][threadIdx.x] =
        row < m && k0 + threadIdx.x < k ? x[static_cast<long long>(row) * k + k0 + threadIdx.x] : 0.0f;
    int const wrow = blockIdx.x * kTile + threadIdx.y;
    ws[threadIdx.y][threadIdx.x] =
        wrow < n && k0 + threadIdx.x < k ? w[static_cast<long long>(wrow) * k + k0 + threadIdx.x] : 0.0f;
    __syncthreads();
    for (int kk = 0; kk < kTile; ++kk) acc += xs[threadIdx.y][kk] * ws[threadIdx.x][kk];
    __syncthreads();
  }
  if (row < m && col < n) out[static_cast<long long>(row) * n + col] = fmaxf(acc + b[col], 0.0f);
}

extern "C" void forward(const float* x, const float* linear_weight, const float* linear_bias, float* out,
                        int batch_size, int in_features, int out_features) {
  dim3 const block(kTile, kTile);
  dim3 const grid((out_features + kTile - 1) / kTile, (batch_size + kTile - 1) / kTile);
  linear_relu_kernel<<<grid, block>>>(x, linear_weight, linear_bias, out, batch_size, in_features,
                                      out_features);
}
