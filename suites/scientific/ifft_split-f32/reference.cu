// Reference for ifft_split-f32: see ../fft_split-common.cuh.
#include "../fft_split-common.cuh"

extern "C" void ifft_split(float* out_re, float* out_im, const float* in_re, const float* in_im, int N,
                           int B) {
  fft_split_reference(out_re, out_im, in_re, in_im, N, B, true);
}
