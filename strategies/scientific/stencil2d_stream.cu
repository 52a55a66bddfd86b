// Strategy stencil2d_stream: one Jacobi sweep of the 5-point stencil with register streaming along y.
// A block of BX x BY threads covers BX columns and BY * RY rows; each thread walks RY consecutive rows of
// its column keeping the rows above, at and below in registers, so each input row is loaded once per
// thread strip instead of three times. The left and right neighbours come from the adjacent lanes with
// warp shuffles (BX is a multiple of 32, so a warp is 32 consecutive columns of one row); only the two
// edge lanes of a warp load them from global memory. Boundary points are copied and interior points get
// 0.25 * (left + right + up + down), the reference's order of additions. Knobs: BX, BY, RY.
//
// kopt:knob BX = [32, 64, 128]
// kopt:knob BY = [1, 2, 4, 8]
// kopt:knob RY = [1, 2, 4, 8]
// kopt:constraint BX * BY >= 64 && BX * BY <= 512
// kopt:launch grid=(ceil_div({{ARG2}}, BX), ceil_div({{ARG3}}, BY * RY)) block=(BX, BY) kernel={{ENTRY}}

#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 4
#endif
#ifndef RY
#define RY 4
#endif

static_assert(BX % 32 == 0, "a warp is 32 columns of one row");

extern "C" __global__ void __launch_bounds__(BX * BY)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int NX, int NY) {
  using namespace kopt_strategy;
  int const x = static_cast<int>(blockIdx.x) * BX + static_cast<int>(threadIdx.x);
  int const y0 = (static_cast<int>(blockIdx.y) * BY + static_cast<int>(threadIdx.y)) * RY;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  bool const col_in = x < NX;
  auto load = [&](int xx, int yy) -> float {
    return (xx >= 0 && xx < NX && yy >= 0 && yy < NY) ? to_float(in[static_cast<long long>(yy) * NX + xx]) : 0.0f;
  };
  float up = load(x, y0 - 1);
  float cur = load(x, y0);
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    int const y = y0 + r;
    float const down = load(x, y + 1);
    float left = __shfl_up_sync(0xffffffffu, cur, 1);
    float right = __shfl_down_sync(0xffffffffu, cur, 1);
    if (lane == 0) left = load(x - 1, y);
    if (lane == 31) right = load(x + 1, y);
    if (col_in && y < NY) {
      long long const i = static_cast<long long>(y) * NX + x;
      bool const boundary = x == 0 || y == 0 || x == NX - 1 || y == NY - 1;
      out[i] = boundary ? in[i] : from_float<{{T}}>(0.25f * (left + right + up + down));
    }
    up = cur;
    cur = down;
  }
}
