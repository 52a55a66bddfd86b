// Reference for avgpool2d-bf16: see ../pool2d-common.cuh. No baseline (see task.toml).
#include "../pool2d-common.cuh"

extern "C" void avgpool2d(__nv_bfloat16* out, const __nv_bfloat16* in, int N, int C, int H, int W, int K,
                          int S) {
  scientific_suite::pool2d_reference<__nv_bfloat16, scientific_suite::Pool::average>(out, in, N, C, H, W, K,
                                                                                     S);
}
