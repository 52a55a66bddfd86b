// Reference for stencil2d_weighted-f32: see ../stencil2d-common.cuh. No baseline: no vendor stencil.
#include "../stencil2d-common.cuh"

extern "C" void stencil2d_weighted(float* out, const float* in, int NX, int NY, float c0, float c1) {
  stencil2d_reference(out, in, NX, NY, StencilUpdate::weighted, c0, c1);
}
