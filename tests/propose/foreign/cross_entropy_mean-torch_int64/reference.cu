// Mean cross-entropy with int64 targets, two kernels: one thread per row writes the row's loss in double
// (the row's maximum, the sum of exponentials relative to it) to a scratch buffer grown once for the largest
// batch, then one thread sums the rows whose target is not -100 in order and writes their mean as a float.
#include <cuda_runtime.h>

#include <cstdint>

__global__ void ce_row_kernel(double* row_loss, const float* input, const int64_t* target, int64_t batch,
                              int64_t classes) {
  int64_t const b = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  int64_t const t = target[b];
  if (t == -100) {
    row_loss[b] = 0.0;
    return;
  }
  if (t < 0 || t >= classes) {
    row_loss[b] = __longlong_as_double(0x7ff8000000000000LL);  // quiet NaN
    return;
  }
  const float* row = input + b * classes;
  double max_value = row[0];
  for (int64_t c = 1; c < classes; ++c) max_value = fmax(max_value, static_cast<double>(row[c]));
  double sum = 0.0;
  for (int64_t c = 0; c < classes; ++c) sum += exp(static_cast<double>(row[c]) - max_value);
  row_loss[b] = log(sum) + max_value - static_cast<double>(row[t]);
}

__global__ void ce_mean_kernel(float* output, const double* row_loss, const int64_t* target, int64_t batch) {
  double sum = 0.0;
  int64_t count = 0;
  for (int64_t b = 0; b < batch; ++b) {
    if (target[b] == -100) continue;
    sum += row_loss[b];
    ++count;
  }
  *output = static_cast<float>(sum / static_cast<double>(count));  // NaN when no row counts
}

extern "C" void ce_mean(const float* input, const int64_t* target, float* output, int64_t batch,
                        int64_t classes) {
  static double* row_loss = nullptr;
  static int64_t capacity = 0;
  int64_t const need = batch > 1 ? batch : 1;
  if (need > capacity) {
    if (row_loss != nullptr) cudaFree(row_loss);
    row_loss = nullptr;
    capacity = 0;
    if (cudaMalloc(&row_loss, static_cast<size_t>(need) * sizeof(double)) != cudaSuccess) return;
    capacity = need;
  }
  if (batch > 0) {
    ce_row_kernel<<<static_cast<unsigned>((batch + 31) / 32), 32>>>(row_loss, input, target, batch, classes);
  }
  ce_mean_kernel<<<1, 1>>>(output, row_loss, target, batch > 0 ? batch : 0);
}
