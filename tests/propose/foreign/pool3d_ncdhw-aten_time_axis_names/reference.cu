// nn.MaxPool3d's forward (floor mode): one thread per output, the window walked in (time, row, column)
// order with every axis's stride, padding and dilation, taps outside the input skipped (the padding is
// -inf), the maximum in FP32 (exact).
#include <math.h>

#include <cstdint>

__global__ void max_pool3d_frame_kernel(const float* input, int64_t itime, int64_t iheight, int64_t iwidth,
                                        int64_t out_d, int64_t out_h, int64_t out_w, int64_t kT, int64_t kH,
                                        int64_t kW, int64_t dT, int64_t dH, int64_t dW, int64_t pT,
                                        int64_t pH, int64_t pW, int64_t dilationT, int64_t dilationH,
                                        int64_t dilationW, int64_t total, float* output) {
  int64_t const index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  int64_t const ox = index % out_w;
  int64_t const oy = index / out_w % out_h;
  int64_t const oz = index / (out_w * out_h) % out_d;
  int64_t const slice = index / (out_w * out_h * out_d);  // b * nslices + ch
  const float* volume = input + slice * itime * iheight * iwidth;
  float best = -INFINITY;
  for (int64_t i = 0; i < kT; ++i) {
    int64_t const z = oz * dT - pT + i * dilationT;
    if (z < 0 || z >= itime) continue;
    for (int64_t j = 0; j < kH; ++j) {
      int64_t const y = oy * dH - pH + j * dilationH;
      if (y < 0 || y >= iheight) continue;
      for (int64_t k = 0; k < kW; ++k) {
        int64_t const x = ox * dW - pW + k * dilationW;
        if (x < 0 || x >= iwidth) continue;
        best = fmaxf(best, volume[(z * iheight + y) * iwidth + x]);
      }
    }
  }
  output[index] = best;
}

extern "C" void max_pool3d_aten_frame(const float* input, int64_t nbatch, int64_t nslices, int64_t itime,
                                      int64_t iheight, int64_t iwidth, int64_t kT, int64_t kH, int64_t kW,
                                      int64_t dT, int64_t dH, int64_t dW, int64_t pT, int64_t pH, int64_t pW,
                                      int64_t dilationT, int64_t dilationH, int64_t dilationW,
                                      float* output) {
  int64_t const out_d = (itime + 2 * pT - dilationT * (kT - 1) - 1) / dT + 1;
  int64_t const out_h = (iheight + 2 * pH - dilationH * (kH - 1) - 1) / dH + 1;
  int64_t const out_w = (iwidth + 2 * pW - dilationW * (kW - 1) - 1) / dW + 1;
  int64_t const total = nbatch * nslices * out_d * out_h * out_w;
  if (out_d <= 0 || out_h <= 0 || out_w <= 0 || total <= 0) return;
  max_pool3d_frame_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      input, itime, iheight, iwidth, out_d, out_h, out_w, kT, kH, kW, dT, dH, dW, pT, pH, pW, dilationT,
      dilationH, dilationW, total, output);
}
