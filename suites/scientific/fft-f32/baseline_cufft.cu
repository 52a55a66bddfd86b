// Vendor baseline for fft-f32: cufftExecC2C (single precision, forward, unnormalised, out of place),
// batched over B transforms of N points (../fft-cufft.cuh).
#include "../fft-cufft.cuh"

extern "C" void fft(float* out, const float* in, int N, int B) {
  kopt_suite::cufft_interleaved(out, in, N, B, CUFFT_FORWARD, false);
}
