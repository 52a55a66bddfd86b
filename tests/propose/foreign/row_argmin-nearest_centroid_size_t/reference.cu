// One thread per point scans its distances in order (the first minimum wins).
#include <cstddef>

__global__ void assign_kernel(const float* distances, int* labels, size_t n_points, size_t n_clusters) {
  size_t const p = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= n_points) return;
  const float* d = distances + p * n_clusters;
  size_t best = 0;
  for (size_t k = 1; k < n_clusters; ++k) {
    if (d[k] < d[best]) best = k;
  }
  labels[p] = static_cast<int>(best);
}

extern "C" void assign_clusters(const float* distances, int* labels, size_t n_points, size_t n_clusters) {
  if (n_points == 0) return;
  assign_kernel<<<static_cast<unsigned>((n_points + 255) / 256), 256>>>(distances, labels, n_points,
                                                                        n_clusters);
}
