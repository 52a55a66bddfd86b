// Reference for stencil3d_weighted-f32: see ../stencil3d-common.cuh. No baseline: no vendor stencil.
#include "../stencil3d-common.cuh"

extern "C" void stencil3d_weighted(float* out, const float* in, int NX, int NY, int NZ, float c0, float c1) {
  stencil3d_reference(out, in, NX, NY, NZ, StencilUpdate::weighted, c0, c1);
}
