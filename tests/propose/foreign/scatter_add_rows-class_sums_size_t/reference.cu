// One block per sample, its threads striding over the features, one atomic add each.
#include <cstddef>

__global__ void class_sums_kernel(const float* features, const int* labels, float* sums,
                                  size_t num_features) {
  size_t const s = blockIdx.x;
  float* row = sums + static_cast<size_t>(labels[s]) * num_features;
  for (size_t f = threadIdx.x; f < num_features; f += blockDim.x)
    atomicAdd(&row[f], features[s * num_features + f]);
}

extern "C" void accumulate_class_sums(const float* features, const int* labels, float* sums,
                                      size_t num_samples, size_t num_features) {
  if (num_samples == 0 || num_features == 0) return;
  class_sums_kernel<<<static_cast<unsigned>(num_samples), 128>>>(features, labels, sums, num_features);
}
