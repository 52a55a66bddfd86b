// Reference for nbody_g-bf16: see ../nbody-common.cuh. No baseline (see task.toml).
#include "../nbody-common.cuh"

extern "C" void nbody_g(__nv_bfloat16* acc, const __nv_bfloat16* pos, const __nv_bfloat16* mass, int n,
                        float eps2, float G) {
  nbody_reference(acc, pos, mass, n, eps2, 3, 1, G);
}
