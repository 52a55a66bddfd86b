// Strategy stencil2d_stream: one Jacobi sweep of the 5-point stencil, vectorised rows with register
// streaming along y. A block of BX x BY threads covers BX*VEC columns and BY*RY rows. Each thread owns
// VEC consecutive columns of RY consecutive rows: it first issues all RY+2 row loads it needs (rows
// y0-1 .. y0+RY, one VEC-wide access each: 16 bytes for VEC = 8 BF16 / 4 FP32) and the few edge values,
// so RY+2 independent wide loads per thread are in flight, then computes its RY*VEC outputs from
// registers: up and down neighbours are the adjacent rows, the left and right neighbours of the VEC-wide
// run come from the adjacent lanes by warp shuffles (BX is a multiple of 32, so a warp is 32 consecutive
// runs of one row) and, for the warp's two edge lanes, from one extra scalar load per row. Vector
// accesses are used when NX is a multiple of VEC and both buffers are VEC-aligned (checked at run time);
// otherwise (the odd size case) each thread computes the same points straight from global memory.
// Boundary points are copied bit-exactly; interior points get 0.25 * (left + right + up + down), the
// reference's order of additions, so the result equals the reference's.
//
// Why (H200 bench 2026-11-30, large grid): the previous version gave each thread ONE column, i.e. 2-byte
// (BF16) or 4-byte (FP32) loads and about 12-24 bytes in flight per thread: BF16 ran at 30 % of DRAM,
// FP32 at 73 %. Here a thread has (RY+2)*VEC*sizeof(T) bytes in flight (96 B for BF16, 192 B for FP32
// at the defaults), i.e. roughly 100 KiB per SM, and one load instruction moves 16-32 bytes.
// The vertical halo (2 rows per RY) is re-read from L1/L2, not DRAM (adjacent strips run together).
// Knobs: BX, BY (threads), VEC (columns per thread), RY (rows per thread; VEC*RY bounds the registers).
//
// kopt:knob BX = [32, 64, 128]
// kopt:knob BY = [1, 2, 4, 8]
// kopt:knob VEC = [2, 4, 8]
// kopt:knob RY = [2, 4, 8, 16]
// kopt:constraint BX * BY >= 64 && BX * BY <= 512
// kopt:constraint VEC * RY <= 64
// kopt:launch grid=(ceil_div({{ARG2}}, BX * VEC), ceil_div({{ARG3}}, BY * RY)) block=(BX, BY) kernel={{ENTRY}}

#ifndef BX
#define BX 64
#endif
#ifndef BY
#define BY 2
#endif
#ifndef VEC
#define VEC 8
#endif
#ifndef RY
#define RY 4
#endif

#define KOPT_STENCIL_NEIGHBOURS 4
// kopt:include ../common/stencil_update.cuh

static_assert(BX % 32 == 0, "a warp is 32 consecutive runs of one row");
static_assert(VEC == 1 || VEC == 2 || VEC == 4 || VEC == 8, "VEC is 1, 2, 4 or 8");

extern "C" __global__ void __launch_bounds__(BX * BY)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int NX, int NY KOPT_STENCIL_PARAMS) {
  using namespace kopt_strategy;
  using Vec = Pack<{{T}}, VEC>;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const x = (static_cast<int>(blockIdx.x) * BX + static_cast<int>(threadIdx.x)) * VEC;
  int const y0 = (static_cast<int>(blockIdx.y) * BY + static_cast<int>(threadIdx.y)) * RY;
  // With NX % VEC == 0, x < NX means the whole run x .. x+VEC-1 is inside the row.
  bool const vec_ok =
      NX % VEC == 0 && aligned_to(in, sizeof({{T}}) * VEC) && aligned_to(out, sizeof({{T}}) * VEC);
  {{T}} const zero = from_float<{{T}}>(0.0f);

  if (!vec_ok) {
    // Fallback for unaligned buffers or NX % VEC != 0 (e.g. the odd size case): the same points, each
    // from global memory (neighbours hit L1), in the reference's order of additions.
    for (int r = 0; r < RY; ++r) {
      int const y = y0 + r;
      if (y >= NY) break;
      for (int j = 0; j < VEC; ++j) {
        int const col = x + j;
        if (col >= NX) break;
        long long const i = static_cast<long long>(y) * NX + col;
        bool const interior = y >= 1 && y < NY - 1 && col >= 1 && col < NX - 1;
        out[i] = interior ? from_float<{{T}}>(KOPT_STENCIL_UPDATE(to_float(in[i]),
                                                                 (to_float(in[i - 1]) + to_float(in[i + 1]) +
                                                                  to_float(in[i - NX]) + to_float(in[i + NX]))))
                          : in[i];
      }
    }
    return;  // vec_ok is uniform over the grid: no lane of a warp reaches the shuffles below
  }

  // 1. Every load first: rows y0-1 .. y0+RY (zero outside the grid) and the warp-edge neighbours.
  Vec rows[RY + 2];
#pragma unroll
  for (int i = 0; i < RY + 2; ++i) {
    int const yy = y0 - 1 + i;
    if (yy >= 0 && yy < NY && x < NX) {
      rows[i] = load_pack<{{T}}, VEC>(in + static_cast<long long>(yy) * NX + x);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j) rows[i].v[j] = zero;
    }
  }
  // Lane 0 needs column x-1, lane 31 column x+VEC, of each of its RY rows.
  int const edge_col = lane == 0 ? x - 1 : x + VEC;
  bool const edge_lane = lane == 0 || lane == 31;
  float edge[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    int const yy = y0 + r;
    bool const ok = edge_lane && yy < NY && edge_col >= 0 && edge_col < NX;
    edge[r] = ok ? to_float(in[static_cast<long long>(yy) * NX + edge_col]) : 0.0f;
  }

  // 2. RY output rows from registers (every lane takes part in the shuffles: no early exit).
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    int const y = y0 + r;
    float up[VEC], c[VEC], down[VEC];
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      up[j] = to_float(rows[r].v[j]);
      c[j] = to_float(rows[r + 1].v[j]);
      down[j] = to_float(rows[r + 2].v[j]);
    }
    float left_end = __shfl_up_sync(0xffffffffu, c[VEC - 1], 1);
    float right_end = __shfl_down_sync(0xffffffffu, c[0], 1);
    if (lane == 0) left_end = edge[r];
    if (lane == 31) right_end = edge[r];
    bool const row_interior = y >= 1 && y < NY - 1;
    Vec res;
#pragma unroll
    for (int j = 0; j < VEC; ++j) {
      int const col = x + j;
      float const l = j == 0 ? left_end : c[j > 0 ? j - 1 : 0];
      float const rt = j == VEC - 1 ? right_end : c[j < VEC - 1 ? j + 1 : 0];
      bool const interior = row_interior && col >= 1 && col < NX - 1;
      res.v[j] = interior ? from_float<{{T}}>(KOPT_STENCIL_UPDATE(c[j], (l + rt + up[j] + down[j]))) : rows[r + 1].v[j];
    }
    if (y < NY && x < NX) store_pack<{{T}}, VEC>(out + static_cast<long long>(y) * NX + x, res);
  }
}
