// expect: ok
// defeats: timing on the launch stream only (defence 8: device-wide timing)
// mode: launcher
// task: suites/pytorch/level1/relu.py
// Adversarial (issue #21): does its work on a stream of its own and returns at once, so a timer that
// records events on the launch stream would see almost nothing. kopt synchronises the device before it
// reads outputs and times such a launcher device-wide: it must verify, with its timing marked device_wide.
#include <cuda_runtime.h>

__global__ void relu_kernel(float const* x, float* out, long long n) {
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = fmaxf(x[i], 0.0f);
}

extern "C" void forward(const float* x, float* out, int batch_size, int dim) {
  static cudaStream_t side = nullptr;
  if (side == nullptr) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  relu_kernel<<<1024, 256, 0, side>>>(x, out, static_cast<long long>(batch_size) * dim);
}
