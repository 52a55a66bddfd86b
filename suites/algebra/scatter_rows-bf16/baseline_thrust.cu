// Vendor baseline for scatter_rows-bf16: thrust::scatter of the elements with a computed element map
// (../scatter_rows-thrust.cuh).
#include "../scatter_rows-thrust.cuh"

extern "C" void scatter_rows(__nv_bfloat16* out, const __nv_bfloat16* src, const int* idx, int n, int dim) {
  algebra_scatter_rows::baseline_thrust(out, src, idx, n, dim);
}
