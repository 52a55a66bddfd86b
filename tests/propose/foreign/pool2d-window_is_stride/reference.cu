// Non-overlapping p x p max pooling (the suite's pool2d reference with K = S = p): one thread per output,
// the window read in row order, the maximum in FP32.
#include <math.h>

__global__ void maxpool_nonoverlap_kernel(float* y, const float* x, int n, int c, int h, int w, int p) {
  int const oh = h / p;
  int const ow = w / p;
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<long long>(n) * c * oh * ow) return;
  int const j = static_cast<int>(index % ow);
  int const i = static_cast<int>(index / ow % oh);
  long long const plane = index / (static_cast<long long>(ow) * oh);
  const float* window = x + (plane * h + static_cast<long long>(i) * p) * w + j * p;
  float best = -INFINITY;
  for (int u = 0; u < p; ++u)
    for (int v = 0; v < p; ++v) best = fmaxf(best, window[static_cast<long long>(u) * w + v]);
  y[index] = best;
}

extern "C" void maxpool_nonoverlap(float* y, const float* x, int n, int c, int h, int w, int p) {
  long long const total = static_cast<long long>(n) * c * (h / p) * (w / p);
  if (total <= 0) return;
  maxpool_nonoverlap_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(y, x, n, c, h, w, p);
}
