// Reference for stencil2d_heat-bf16: see ../stencil2d-common.cuh. No baseline: no vendor stencil.
#include "../stencil2d-common.cuh"

extern "C" void stencil2d_heat(__nv_bfloat16* out, const __nv_bfloat16* in, int NX, int NY, float r) {
  stencil2d_reference(out, in, NX, NY, StencilUpdate::heat, r);
}
