// Reference for nbody_xyzm_g-f32: see ../nbody-common.cuh (bodies as x, y, z, mass). No baseline.
#include "../nbody-common.cuh"

extern "C" void nbody_xyzm_g(float* acc, const float* body, float eps2, int n, float G) {
  nbody_reference(acc, body, body + 3, n, eps2, 4, 4, G);
}
