// Reference for ifft-bf16: see ../fft-common.cuh. No baseline: cuFFT has no portable BF16 C2C (see
// task.toml).
#include "../fft-common.cuh"

extern "C" void ifft(__nv_bfloat16* out, const __nv_bfloat16* in, int N, int B) {
  fft_reference(out, in, N, B, true, true);
}
