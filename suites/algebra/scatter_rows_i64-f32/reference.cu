// Reference for suites/algebra/scatter_rows_i64-f32: the naive kernel of ../scatter_rows-common.cuh for
// float, launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cstdint>

#include "../scatter_rows-common.cuh"

extern "C" void scatter_rows_i64(float* out, const float* src, const int64_t* idx, int n, int dim) {
  algebra_scatter_rows::reference(out, src, idx, n, dim);
}
