// Reference for pool3d_ncdhw-bf16, average pooling with count_include_pad=True (nn.AvgPool3d's defaults): see
// ../pool3d_ncdhw-common.cuh. No baseline (see task.toml).
#include "../pool3d_ncdhw-common.cuh"

extern "C" void avg_pool3d(__nv_bfloat16* y, const __nv_bfloat16* x, int N, int C, int D, int H, int W,
                           int KD, int KH, int KW, int SD, int SH, int SW, int PD, int PH, int PW, int DD,
                           int DH, int DW) {
  scientific_suite::pool3d_ncdhw_reference<__nv_bfloat16, scientific_suite::Pool3d::average>(
      y, x, N, C, D, H, W, scientific_suite::Pool3dGeometry{KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW});
}
