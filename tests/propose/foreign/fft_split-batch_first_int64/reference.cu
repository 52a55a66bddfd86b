// One thread per output: the twiddle index stepped exactly mod n, double accumulation.
#include <cstdint>

__global__ void batched_fft_split_kernel(float* re_out, float* im_out, const float* re_in, const float* im_in,
                                         int64_t batch, int64_t n) {
  int64_t const o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= batch * n) return;
  int64_t const row = o / n;
  int64_t const k = o - row * n;
  const float* xr = re_in + row * n;
  const float* xi = im_in + row * n;
  double acc_re = 0.0;
  double acc_im = 0.0;
  int64_t m = 0;  // j*k mod n
  for (int64_t j = 0; j < n; ++j) {
    double s = 0.0;
    double c = 0.0;
    sincospi(-2.0 * static_cast<double>(m) / static_cast<double>(n), &s, &c);
    acc_re += static_cast<double>(xr[j]) * c - static_cast<double>(xi[j]) * s;
    acc_im += static_cast<double>(xr[j]) * s + static_cast<double>(xi[j]) * c;
    m += k;
    if (m >= n) m -= n;
  }
  re_out[o] = static_cast<float>(acc_re);
  im_out[o] = static_cast<float>(acc_im);
}

extern "C" void batched_fft_split(float* re_out, float* im_out, const float* re_in, const float* im_in,
                                  int64_t batch, int64_t n) {
  int64_t const total = batch * n;
  if (total <= 0) return;
  batched_fft_split_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(re_out, im_out, re_in, im_in,
                                                                                batch, n);
}
