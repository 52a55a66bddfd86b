// Reference for nbody_g-f32: see ../nbody-common.cuh. No baseline (see task.toml).
#include "../nbody-common.cuh"

extern "C" void nbody_g(float* acc, const float* pos, const float* mass, int n, float eps2, float G) {
  nbody_reference(acc, pos, mass, n, eps2, 3, 1, G);
}
