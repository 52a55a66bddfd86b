// Numerically stable log-softmax of each row (the suite's row_log_softmax reference): one thread per row,
// max, sum of exponentials in double, then x - (max + log(sum)); each output rounded once.
#include <cstdint>

__global__ void log_softmax_forward_kernel(const float* input, float* output, int64_t rows, int64_t cols) {
  int64_t const row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* x = input + row * cols;
  float* y = output + row * cols;
  double max_value = static_cast<double>(x[0]);
  for (int64_t j = 1; j < cols; ++j) max_value = fmax(max_value, static_cast<double>(x[j]));
  double sum = 0.0;
  for (int64_t j = 0; j < cols; ++j) sum += exp(static_cast<double>(x[j]) - max_value);
  double const shift = max_value + log(sum);
  for (int64_t j = 0; j < cols; ++j) y[j] = static_cast<float>(static_cast<double>(x[j]) - shift);
}

extern "C" void log_softmax_forward(const float* input, float* output, int64_t rows, int64_t cols) {
  if (rows <= 0 || cols <= 0) return;
  log_softmax_forward_kernel<<<static_cast<unsigned>((rows + 31) / 32), 32>>>(input, output, rows, cols);
}
