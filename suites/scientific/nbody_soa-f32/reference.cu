// Reference for nbody_soa-f32: see ../nbody-common.cuh (three arrays per vector). No baseline.
#include "../nbody-common.cuh"

extern "C" void nbody_soa(float* ax, float* ay, float* az, int n, const float* x, const float* y,
                          const float* z, const float* mass, float eps2) {
  nbody_soa_reference(ax, ay, az, n, x, y, z, mass, eps2);
}
