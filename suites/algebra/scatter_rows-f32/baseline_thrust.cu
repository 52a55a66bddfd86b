// Vendor baseline for scatter_rows-f32: thrust::scatter of the elements with a computed element map
// (../scatter_rows-thrust.cuh).
#include "../scatter_rows-thrust.cuh"

extern "C" void scatter_rows(float* out, const float* src, const int* idx, int n, int dim) {
  algebra_scatter_rows::baseline_thrust(out, src, idx, n, dim);
}
