// Mean token loss on BF16 scores, two kernels: one thread per row writes the row's loss in double (the
// widened scores' maximum, the sum of exponentials relative to it) to a scratch buffer grown once for the
// largest row count, then one thread sums the rows whose label is not -100 in order and writes their mean,
// rounded once to BF16.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

__global__ void nll_row_kernel(double* row_loss, const __nv_bfloat16* scores, const int* y, int rows,
                               int vocab) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int const label = y[r];
  if (label == -100) {
    row_loss[r] = 0.0;
    return;
  }
  if (label < 0 || label >= vocab) {
    row_loss[r] = __longlong_as_double(0x7ff8000000000000LL);  // quiet NaN
    return;
  }
  const __nv_bfloat16* row = scores + static_cast<int64_t>(r) * vocab;
  double max_value = __bfloat162float(row[0]);
  for (int v = 1; v < vocab; ++v) max_value = fmax(max_value, static_cast<double>(__bfloat162float(row[v])));
  double sum = 0.0;
  for (int v = 0; v < vocab; ++v) sum += exp(static_cast<double>(__bfloat162float(row[v])) - max_value);
  row_loss[r] = log(sum) + max_value - static_cast<double>(__bfloat162float(row[label]));
}

__global__ void nll_mean_kernel(__nv_bfloat16* out, const double* row_loss, const int* y, int rows) {
  double sum = 0.0;
  int count = 0;
  for (int r = 0; r < rows; ++r) {
    if (y[r] == -100) continue;
    sum += row_loss[r];
    ++count;
  }
  *out = __double2bfloat16(sum / static_cast<double>(count));  // NaN when no row counts
}

extern "C" void mean_nll_bf16(__nv_bfloat16* out, const __nv_bfloat16* scores, const int* y, int rows,
                              int vocab) {
  static double* row_loss = nullptr;
  static int capacity = 0;
  int const need = rows > 1 ? rows : 1;
  if (need > capacity) {
    if (row_loss != nullptr) cudaFree(row_loss);
    row_loss = nullptr;
    capacity = 0;
    if (cudaMalloc(&row_loss, static_cast<size_t>(need) * sizeof(double)) != cudaSuccess) return;
    capacity = need;
  }
  if (rows > 0) nll_row_kernel<<<(rows + 31) / 32, 32>>>(row_loss, scores, y, rows, vocab);
  nll_mean_kernel<<<1, 1>>>(out, row_loss, y, rows > 0 ? rows : 0);
}
