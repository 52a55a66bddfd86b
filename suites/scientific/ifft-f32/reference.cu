// Reference for ifft-f32: see ../fft-common.cuh.
#include "../fft-common.cuh"

extern "C" void ifft(float* out, const float* in, int N, int B) {
  fft_reference(out, in, N, B, true, true);
}
