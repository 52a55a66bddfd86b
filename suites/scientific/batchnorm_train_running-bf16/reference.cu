// Reference for batchnorm_train_running-bf16: see ../batchnorm_train-common.cuh. No baseline (see task.toml).
#include "../batchnorm_train-common.cuh"

extern "C" void batchnorm_train_running(__nv_bfloat16* out, __nv_bfloat16* save_mean,
                                        __nv_bfloat16* save_invstd, const __nv_bfloat16* x,
                                        const __nv_bfloat16* gamma, const __nv_bfloat16* beta, float eps,
                                        int N, int C, int H, int W, __nv_bfloat16* running_mean,
                                        __nv_bfloat16* running_var, float momentum) {
  batchnorm_train_reference(out, save_mean, save_invstd, x, gamma, beta, eps, N, C, H, W, running_mean,
                            running_var, momentum);
}
