// Vendor baseline for ifft-f32: cufftExecC2C (single precision, inverse, out of place, then one pass
// multiplying by 1/N), batched over B transforms of N points (../fft-cufft.cuh).
#include "../fft-cufft.cuh"

extern "C" void ifft(float* out, const float* in, int N, int B) {
  kopt_suite::cufft_interleaved(out, in, N, B, CUFFT_INVERSE, true);
}
