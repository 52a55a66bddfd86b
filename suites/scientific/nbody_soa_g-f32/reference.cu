// Reference for nbody_soa_g-f32: see ../nbody-common.cuh (three arrays per vector). No baseline.
#include "../nbody-common.cuh"

extern "C" void nbody_soa_g(float* ax, float* ay, float* az, int n, const float* x, const float* y,
                            const float* z, const float* mass, float eps2, float G) {
  nbody_soa_reference(ax, ay, az, n, x, y, z, mass, eps2, G);
}
