// Reference for stencil2d_heat-f32: see ../stencil2d-common.cuh. No baseline: no vendor stencil.
#include "../stencil2d-common.cuh"

extern "C" void stencil2d_heat(float* out, const float* in, int NX, int NY, float r) {
  stencil2d_reference(out, in, NX, NY, StencilUpdate::heat, r);
}
