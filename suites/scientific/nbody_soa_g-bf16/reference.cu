// Reference for nbody_soa_g-bf16: see ../nbody-common.cuh (three arrays per vector). No baseline.
#include <cuda_bf16.h>

#include "../nbody-common.cuh"

extern "C" void nbody_soa_g(__nv_bfloat16* ax, __nv_bfloat16* ay, __nv_bfloat16* az, int n,
                            const __nv_bfloat16* x, const __nv_bfloat16* y, const __nv_bfloat16* z,
                            const __nv_bfloat16* mass, float eps2, float G) {
  nbody_soa_reference(ax, ay, az, n, x, y, z, mass, eps2, G);
}
