// Reference for stencil3d_heat-bf16: see ../stencil3d-common.cuh. No baseline: no vendor stencil.
#include "../stencil3d-common.cuh"

extern "C" void stencil3d_heat(__nv_bfloat16* out, const __nv_bfloat16* in, int NX, int NY, int NZ, float r) {
  stencil3d_reference(out, in, NX, NY, NZ, StencilUpdate::heat, r);
}
