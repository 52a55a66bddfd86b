// Reference for conv1d-bf16: see ../conv1d-common.cuh. No baseline (see task.toml).
#include "../conv1d-common.cuh"

extern "C" void conv1d(__nv_bfloat16* out, const __nv_bfloat16* in, const __nv_bfloat16* w, int n, int K) {
  conv1d_reference(out, in, w, n, K);
}
