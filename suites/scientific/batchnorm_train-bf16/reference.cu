// Reference for batchnorm_train-bf16: see ../batchnorm_train-common.cuh. No baseline (see task.toml).
#include "../batchnorm_train-common.cuh"

extern "C" void batchnorm_train(__nv_bfloat16* out, __nv_bfloat16* mean, __nv_bfloat16* var,
                                const __nv_bfloat16* x, const __nv_bfloat16* gamma, const __nv_bfloat16* beta,
                                float eps, int N, int C, int H, int W) {
  batchnorm_train_reference(out, mean, var, x, gamma, beta, eps, N, C, H, W);
}
