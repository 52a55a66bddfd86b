// Reference for stencil3d_weighted-bf16: see ../stencil3d-common.cuh. No baseline: no vendor stencil.
#include "../stencil3d-common.cuh"

extern "C" void stencil3d_weighted(__nv_bfloat16* out, const __nv_bfloat16* in, int NX, int NY, int NZ,
                                   float c0, float c1) {
  stencil3d_reference(out, in, NX, NY, NZ, StencilUpdate::weighted, c0, c1);
}
