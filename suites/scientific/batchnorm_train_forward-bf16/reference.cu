// Reference for batchnorm_train_forward-bf16: see ../batchnorm_train-common.cuh. No baseline (see task.toml).
#include "../batchnorm_train-common.cuh"

// The batch's mean and variance, which the header's reference writes and nn.BatchNorm2d's forward keeps to
// itself: grown when a call needs more channels, never freed.
static __nv_bfloat16* batchnorm_forward_statistics(int C) {
  static __nv_bfloat16* buffer = nullptr;
  static int capacity = 0;
  if (C > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, 2 * static_cast<size_t>(C) * sizeof(__nv_bfloat16)) != cudaSuccess)
      return nullptr;
    capacity = C;
  }
  return buffer;
}

// running_mean and running_var are not touched: the output of a training-mode forward depends only on the
// batch's statistics, the task marks them `affects_outputs = false` inputs (PyTorch's update of them is a
// side effect, batchnorm_train_running's task), so the reference neither reads nor writes them.
extern "C" void batchnorm_forward(const __nv_bfloat16* x, const __nv_bfloat16* weight,
                                  const __nv_bfloat16* bias, const __nv_bfloat16* running_mean,
                                  const __nv_bfloat16* running_var, __nv_bfloat16* out, int N, int C, int H,
                                  int W) {
  (void)running_mean;
  (void)running_var;
  if (C <= 0) return;
  __nv_bfloat16* statistics = batchnorm_forward_statistics(C);
  if (statistics == nullptr) return;
  batchnorm_train_reference(out, statistics, statistics + C, x, weight, bias, 1e-5f, N, C, H, W);
}
