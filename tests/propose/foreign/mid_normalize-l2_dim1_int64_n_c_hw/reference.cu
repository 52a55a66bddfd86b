// F.normalize(x, p=2, dim=1) over an (N, C, HW) view: one thread per (n, position) column walks the C
// channels twice, summing the squares in double, then dividing each value by max(norm, 1e-12).
#include <cstdint>

__global__ void normalize_dim1_kernel(const float* input, float* output, int64_t N, int64_t C, int64_t HW) {
  int64_t const column = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (column >= N * HW) return;
  int64_t const n = column / HW;
  int64_t const i = column % HW;
  const float* in = input + n * C * HW + i;
  float* out = output + n * C * HW + i;
  double squares = 0.0;
  for (int64_t c = 0; c < C; ++c) squares += static_cast<double>(in[c * HW]) * in[c * HW];
  double const norm = fmax(sqrt(squares), 1e-12);
  for (int64_t c = 0; c < C; ++c) out[c * HW] = static_cast<float>(in[c * HW] / norm);
}

extern "C" void normalize_dim1(const float* input, float* output, int64_t N, int64_t C, int64_t HW) {
  int64_t const columns = N * HW;
  if (columns <= 0 || C <= 0) return;
  normalize_dim1_kernel<<<static_cast<unsigned>((columns + 127) / 128), 128>>>(input, output, N, C, HW);
}
