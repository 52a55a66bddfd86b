// expect: wrong_output
// defeats: an absolute tolerance on a nearly constant output (defence 7)
// mode: launcher
// task: suites/pytorch/level1/mean_dim.py
// Adversarial (issue #21), for suites/pytorch/level1/mean_dim.py: writes 0 everywhere. A mean over 1024
// zero-mean values is nearly constant (about 0 +- 0.02), so a harness with an absolute tolerance of 1e-2
// would pass it; kopt scales its tolerance to the output and rejects a constant output where the
// reference varies: wrong_output.
#include <cuda_runtime.h>

extern "C" void forward(const float* x, float* out, int batch_size, int dim1, int dim2) {
  cudaMemsetAsync(out, 0, sizeof(float) * static_cast<size_t>(batch_size) * dim1, cudaStreamPerThread);
}
