// Reference for pool3d_ncdhw-f32, max pooling (nn.MaxPool3d's whole geometry): see
// ../pool3d_ncdhw-common.cuh. No baseline (see task.toml).
#include "../pool3d_ncdhw-common.cuh"

extern "C" void max_pool3d(float* y, const float* x, int N, int C, int D, int H, int W, int KD, int KH,
                           int KW, int SD, int SH, int SW, int PD, int PH, int PW, int DD, int DH, int DW) {
  scientific_suite::pool3d_ncdhw_reference<float, scientific_suite::Pool3d::max>(
      y, x, N, C, D, H, W, scientific_suite::Pool3dGeometry{KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW});
}
