// Average pooling without padding (the suite's pool2d reference): one thread per output, the window
// summed in row order in FP32, divided once by ksize*ksize.
__global__ void average_pool_kernel(const float* x, int n, int c, int h, int w, int ksize, int stride,
                                    float* y) {
  int const oh = (h - ksize) / stride + 1;
  int const ow = (w - ksize) / stride + 1;
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<long long>(n) * c * oh * ow) return;
  int const j = static_cast<int>(index % ow);
  int const i = static_cast<int>(index / ow % oh);
  long long const plane = index / (static_cast<long long>(ow) * oh);
  const float* window = x + (plane * h + static_cast<long long>(i) * stride) * w + j * stride;
  float sum = 0.0f;
  for (int u = 0; u < ksize; ++u)
    for (int v = 0; v < ksize; ++v) sum += window[static_cast<long long>(u) * w + v];
  y[index] = sum / static_cast<float>(ksize * ksize);
}

extern "C" void average_pool(const float* x, int n, int c, int h, int w, int ksize, int stride, float* y) {
  long long const total =
      static_cast<long long>(n) * c * ((h - ksize) / stride + 1) * ((w - ksize) / stride + 1);
  if (total <= 0) return;
  average_pool_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(x, n, c, h, w, ksize, stride, y);
}
