// Reference for nbody-f32: see ../nbody-common.cuh. No baseline (see task.toml).
#include "../nbody-common.cuh"

extern "C" void nbody(float* acc, const float* pos, const float* mass, int n, float eps2) {
  nbody_reference(acc, pos, mass, n, eps2);
}
