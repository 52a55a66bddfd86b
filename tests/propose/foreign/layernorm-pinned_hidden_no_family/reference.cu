// LayerNorm over rows of 768 with eps = 1e-5 (the suite's layernorm reference): one thread per row,
// two-pass mean and biased variance and the outputs in double, each output rounded once.
constexpr int kHidden = 768;

__global__ void layernorm768_kernel(const float* x, const float* scale, const float* shift, float* y,
                                    int tokens) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= tokens) return;
  double const eps = 1e-5;
  const float* in = x + static_cast<long long>(row) * kHidden;
  float* out = y + static_cast<long long>(row) * kHidden;
  double sum = 0.0;
  for (int j = 0; j < kHidden; ++j) sum += static_cast<double>(in[j]);
  double const mean = sum / kHidden;
  double squares = 0.0;
  for (int j = 0; j < kHidden; ++j) {
    double const d = static_cast<double>(in[j]) - mean;
    squares += d * d;
  }
  double const rstd = 1.0 / sqrt(squares / kHidden + eps);
  for (int j = 0; j < kHidden; ++j) {
    out[j] = static_cast<float>((static_cast<double>(in[j]) - mean) * rstd * static_cast<double>(scale[j]) +
                                static_cast<double>(shift[j]));
  }
}

extern "C" void layernorm768(const float* x, const float* scale, const float* shift, float* y, int tokens) {
  if (tokens <= 0) return;
  layernorm768_kernel<<<(tokens + 31) / 32, 32>>>(x, scale, shift, y, tokens);
}
