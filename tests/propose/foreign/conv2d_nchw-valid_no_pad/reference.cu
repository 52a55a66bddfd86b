// One thread per output pixel of one output channel; the window never leaves the image (no padding).
__global__ void conv2d_valid_kernel(float* out, const float* in, const float* weight, int batch, int in_ch,
                                    int out_ch, int height, int width, int ksize) {
  int const out_h = height - ksize + 1;
  int const out_w = width - ksize + 1;
  int const j = blockIdx.x * blockDim.x + threadIdx.x;
  int const i = blockIdx.y * blockDim.y + threadIdx.y;
  int const b = blockIdx.z / out_ch;
  int const o = blockIdx.z % out_ch;
  if (i >= out_h || j >= out_w) return;
  float acc = 0.0f;
  for (int c = 0; c < in_ch; ++c) {
    const float* plane = in + (static_cast<long long>(b) * in_ch + c) * height * width;
    const float* filter = weight + (static_cast<long long>(o) * in_ch + c) * ksize * ksize;
    for (int u = 0; u < ksize; ++u) {
      for (int v = 0; v < ksize; ++v) acc += plane[(i + u) * width + (j + v)] * filter[u * ksize + v];
    }
  }
  out[((static_cast<long long>(b) * out_ch + o) * out_h + i) * out_w + j] = acc;
}

extern "C" void conv2d_valid(float* out, const float* in, const float* weight, int batch, int in_ch,
                             int out_ch, int height, int width, int ksize) {
  int const out_h = height - ksize + 1;
  int const out_w = width - ksize + 1;
  if (batch <= 0 || out_ch <= 0 || out_h <= 0 || out_w <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((out_w + 15) / 16, (out_h + 15) / 16, batch * out_ch);
  conv2d_valid_kernel<<<grid, block>>>(out, in, weight, batch, in_ch, out_ch, height, width, ksize);
}
