// Vendor baseline for ifft_split-f32: the real and imaginary arrays packed into one interleaved buffer,
// cufftExecC2C in place on it (single precision, inverse, unnormalised), the result unpacked into the two
// output arrays (../fft-cufft.cuh says why three kernels).
#include "../fft-cufft.cuh"

extern "C" void ifft_split(float* out_re, float* out_im, const float* in_re, const float* in_im, int N,
                           int B) {
  kopt_suite::cufft_split(out_re, out_im, in_re, in_im, N, B, CUFFT_INVERSE, false);
}
