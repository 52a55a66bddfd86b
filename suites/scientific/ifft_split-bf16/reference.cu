// Reference for ifft_split-bf16: see ../fft_split-common.cuh. No baseline: cuFFT has no portable BF16 C2C
// (see task.toml).
#include "../fft_split-common.cuh"

extern "C" void ifft_split(__nv_bfloat16* out_re, __nv_bfloat16* out_im, const __nv_bfloat16* in_re,
                           const __nv_bfloat16* in_im, int N, int B) {
  fft_split_reference(out_re, out_im, in_re, in_im, N, B, true);
}
