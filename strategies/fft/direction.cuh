// Direction and scale of the fft strategies (a manifest's `defines`; spliced by `// kopt:include
// direction.cuh` before the cores). KOPT_FFT_INVERSE = 1: the inverse transform, out[k] = sum_j in[j] *
// exp(+2 pi i j k / N) (cuFFT's CUFFT_INVERSE), computed as conj(FFT(conj(in))): the loads negate the
// imaginary parts and the stores negate them back, so the passes and twiddles stay the forward ones.
// KOPT_FFT_NORMALIZE = 1: every output times 1 / N (numpy.fft.ifft, torch.fft.ifft; cuFFT leaves the
// scaling to its caller), applied to the FP32 value before its one rounding. Without them the helpers
// return their argument and the strategies are as they always were.
#ifndef KOPT_FFT_INVERSE
#define KOPT_FFT_INVERSE 0
#endif
#ifndef KOPT_FFT_NORMALIZE
#define KOPT_FFT_NORMALIZE 0
#endif

namespace fft_direction {

// A loaded imaginary part.
__device__ __forceinline__ float in_im(float v) { return KOPT_FFT_INVERSE ? -v : v; }
// A real or imaginary part about to be stored, of a transform of n points.
__device__ __forceinline__ float out_re(float v, int n) {
  return KOPT_FFT_NORMALIZE ? v * (1.0f / static_cast<float>(n)) : v;
}
__device__ __forceinline__ float out_im(float v, int n) { return out_re(KOPT_FFT_INVERSE ? -v : v, n); }
// Value e of an interleaved (re, im) run: odd ones are imaginary parts.
__device__ __forceinline__ float in_value(float v, int e) { return (e & 1) ? in_im(v) : v; }
__device__ __forceinline__ float out_value(float v, int e, int n) { return (e & 1) ? out_im(v, n) : out_re(v, n); }
// A loaded and a stored complex point; the same float2 when neither define is set.
__device__ __forceinline__ float2 in_point(float2 v) {
#if KOPT_FFT_INVERSE
  v.y = -v.y;
#endif
  return v;
}
__device__ __forceinline__ float2 out_point(float2 v, int n) {
#if KOPT_FFT_INVERSE || KOPT_FFT_NORMALIZE
  v = make_float2(out_re(v.x, n), out_im(v.y, n));
#else
  (void)n;
#endif
  return v;
}

}  // namespace fft_direction
