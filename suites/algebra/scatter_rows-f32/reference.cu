// Reference for suites/algebra/scatter_rows-f32: the naive kernel of ../scatter_rows-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include "../scatter_rows-common.cuh"

extern "C" void scatter_rows(float* out, const float* src, const int* idx, int n, int dim) {
  algebra_scatter_rows::reference(out, src, idx, n, dim);
}
