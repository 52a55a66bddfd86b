// expect: wrong_output
// defeats: a harness that draws inputs from torch.rand only (defence 1: negative inputs)
// mode: launcher
// task: suites/pytorch/level1/relu.py
// Adversarial (issue #21): right only for torch.rand's U[0, 1) inputs, where ReLU is the identity. kopt's
// generators include negative values, so this must end wrong_output.
#include <cuda_runtime.h>

extern "C" void forward(const float* x, float* out, int batch_size, int dim) {
  cudaMemcpyAsync(out, x, sizeof(float) * static_cast<size_t>(batch_size) * dim, cudaMemcpyDeviceToDevice,
                  cudaStreamPerThread);
}
