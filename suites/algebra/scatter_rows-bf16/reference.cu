// Reference for suites/algebra/scatter_rows-bf16: the naive kernel of ../scatter_rows-common.cuh for
// __nv_bfloat16, launched on the default stream (kopt builds launchers with per-thread default streams).
#include "../scatter_rows-common.cuh"

extern "C" void scatter_rows(__nv_bfloat16* out, const __nv_bfloat16* src, const int* idx, int n, int dim) {
  algebra_scatter_rows::reference(out, src, idx, n, dim);
}
