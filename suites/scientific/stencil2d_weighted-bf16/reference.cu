// Reference for stencil2d_weighted-bf16: see ../stencil2d-common.cuh. No baseline: no vendor stencil.
#include "../stencil2d-common.cuh"

extern "C" void stencil2d_weighted(__nv_bfloat16* out, const __nv_bfloat16* in, int NX, int NY, float c0,
                                   float c1) {
  stencil2d_reference(out, in, NX, NY, StencilUpdate::weighted, c0, c1);
}
