// expect: ok
// defeats: none: an honest kernel (the bridge verifies and times it against PyTorch)
// mode: launcher
// task: suites/pytorch/level1/relu.py
// suites/pytorch/level1/relu.py, FP32: an honest ReLU, four elements per thread where the row allows.
#include <cuda_runtime.h>

__global__ void relu_kernel(float const* __restrict__ x, float* __restrict__ out, long long n) {
  long long const i = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    float4 v = *reinterpret_cast<float4 const*>(x + i);
    v.x = fmaxf(v.x, 0.0f);
    v.y = fmaxf(v.y, 0.0f);
    v.z = fmaxf(v.z, 0.0f);
    v.w = fmaxf(v.w, 0.0f);
    *reinterpret_cast<float4*>(out + i) = v;
  } else {
    for (long long k = i; k < n; ++k) out[k] = fmaxf(x[k], 0.0f);
  }
}

extern "C" void forward(const float* x, float* out, int batch_size, int dim) {
  long long const n = static_cast<long long>(batch_size) * dim;
  long long const threads = (n + 3) / 4;
  relu_kernel<<<static_cast<unsigned>((threads + 255) / 256), 256>>>(x, out, n);
}
