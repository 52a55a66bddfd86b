// Cross-entropy per sample, one thread per row: the row's maximum, the sum of exponentials relative to it
// and the loss in double, rounded once to float.
#include <cstdint>

__global__ void cross_entropy_none_kernel(const float* input, const int* target, float* losses, int64_t batch,
                                          int64_t num_classes) {
  int64_t const b = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* row = input + b * num_classes;
  double max_value = row[0];
  for (int64_t c = 1; c < num_classes; ++c) max_value = fmax(max_value, static_cast<double>(row[c]));
  double sum = 0.0;
  for (int64_t c = 0; c < num_classes; ++c) sum += exp(static_cast<double>(row[c]) - max_value);
  losses[b] = static_cast<float>(log(sum) + max_value - static_cast<double>(row[target[b]]));
}

extern "C" void cross_entropy_none(const float* input, const int* target, float* losses, int64_t batch,
                                   int64_t num_classes) {
  if (batch <= 0 || num_classes <= 0) return;
  cross_entropy_none_kernel<<<static_cast<unsigned>((batch + 31) / 32), 32>>>(input, target, losses, batch,
                                                                              num_classes);
}
