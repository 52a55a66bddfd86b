// Reference for nbody_xyzm_g-bf16: see ../nbody-common.cuh (bodies as x, y, z, mass). No baseline.
#include <cuda_bf16.h>

#include "../nbody-common.cuh"

extern "C" void nbody_xyzm_g(__nv_bfloat16* acc, const __nv_bfloat16* body, float eps2, int n, float G) {
  nbody_reference(acc, body, body + 3, n, eps2, 4, 4, G);
}
