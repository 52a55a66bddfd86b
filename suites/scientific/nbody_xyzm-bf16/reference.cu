// Reference for nbody_xyzm-bf16: see ../nbody-common.cuh (bodies as x, y, z, mass). No baseline.
#include <cuda_bf16.h>

#include "../nbody-common.cuh"

extern "C" void nbody_xyzm(__nv_bfloat16* acc, const __nv_bfloat16* body, float eps2, int n) {
  nbody_reference(acc, body, body + 3, n, eps2, 4, 4);
}
