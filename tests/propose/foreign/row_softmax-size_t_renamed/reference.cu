// Numerically stable softmax of each row (the suite's row_softmax reference): one thread per row, max,
// sum of exponentials and normalised write, in double; each output rounded once.
#include <cstddef>

__global__ void softmax_lastdim_kernel(float* output, const float* input, size_t num_rows, size_t row_len) {
  size_t const row = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= num_rows) return;
  const float* x = input + row * row_len;
  float* y = output + row * row_len;
  double max_value = static_cast<double>(x[0]);
  for (size_t j = 1; j < row_len; ++j) max_value = fmax(max_value, static_cast<double>(x[j]));
  double sum = 0.0;
  for (size_t j = 0; j < row_len; ++j) sum += exp(static_cast<double>(x[j]) - max_value);
  for (size_t j = 0; j < row_len; ++j)
    y[j] = static_cast<float>(exp(static_cast<double>(x[j]) - max_value) / sum);
}

extern "C" void softmax_lastdim(float* output, const float* input, size_t num_rows, size_t row_len) {
  if (num_rows == 0 || row_len == 0) return;
  softmax_lastdim_kernel<<<static_cast<unsigned>((num_rows + 31) / 32), 32>>>(output, input, num_rows,
                                                                              row_len);
}
