// Reference for batchnorm_train_running-f32: see ../batchnorm_train-common.cuh. No baseline (see task.toml).
#include "../batchnorm_train-common.cuh"

extern "C" void batchnorm_train_running(float* out, float* save_mean, float* save_invstd, const float* x,
                                        const float* gamma, const float* beta, float eps, int N, int C, int H,
                                        int W, float* running_mean, float* running_var, float momentum) {
  batchnorm_train_reference(out, save_mean, save_invstd, x, gamma, beta, eps, N, C, H, W, running_mean,
                            running_var, momentum);
}
