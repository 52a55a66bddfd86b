// Strategy conv2d_tiled: "same"-size 2D cross-correlation of a one-channel H x W image with a K x K
// filter, zero padding, out[y][x] = sum_{ky,kx<K} w[ky][kx] * in[y + ky - K/2][x + kx - K/2].
// A block of BX x BY threads owns BX columns x BY*RY rows of the output. For K = 1, 3, 5 and 7 (the
// filter size is a template argument chosen at run time) it stages its input tile plus the K-1 halo in
// shared memory, converted to FP32 with zeros outside the image, and the filter in shared memory
// (rows padded to 8 taps, read as float4). Each thread computes RY vertically adjacent outputs of
// one column: it walks the RY+K-1 input rows they need once, reads each row's K values into registers
// and adds them into every output whose window contains that row, so each shared-memory value serves up
// to min(K, RY) outputs and the image is read from DRAM about once. Products are accumulated in FP32 in
// (ky, kx) order like the reference. Any other K takes a direct path (global loads, no tiling) so the
// result never depends on K. Knobs: BX (threads in x, a multiple of 32), BY (threads in y), RY (outputs
// per thread in y), UNROLL_K (filters up to this size run fully unrolled with the taps in registers;
// larger ones use a rolled row loop that needs far fewer registers: the kernel's register count, and so
// the occupancy of the memory-bound K = 3 case, is set by its largest unrolled filter).
//
// kopt:knob BX = [32, 64, 128]
// kopt:knob BY = [1, 2, 4, 8]
// kopt:knob RY = [1, 2, 4, 8]
// kopt:knob UNROLL_K = [3, 5, 7] resources=increasing
// kopt:constraint BX * BY >= 64 && BX * BY <= 512
// kopt:constraint (BY * RY + 6) * (BX + 8) * 4 + 4 * 56 <= 48 * 1024
// kopt:launch grid=(ceil_div({{ARG4}}, BX), ceil_div({{ARG3}}, BY * RY)) block=(BX, BY) kernel={{ENTRY}}

#ifndef BX
#define BX 32
#endif
#ifndef BY
#define BY 8
#endif
#ifndef RY
#define RY 4
#endif
#ifndef UNROLL_K
#define UNROLL_K 5
#endif

static_assert(BX % 32 == 0, "a warp is 32 consecutive columns of one row");

namespace conv2d_tiled {

constexpr int kMaxK = 7;                       // largest filter of the tiled path
constexpr int kPitch = BX + kMaxK + 1;         // tile row: BX + K - 1 values, padded
constexpr int kRows = BY * RY + kMaxK - 1;     // tile rows for the largest filter
constexpr int kThreads = BX * BY;
constexpr int kWPitch = 8;                     // filter row in shared memory: K taps, zero padded

template <typename T, int KK>
__device__ __forceinline__ void tiled(T* __restrict__ out, T const* __restrict__ in, T const* __restrict__ w,
                                      int H, int W, float* tile, float* wsm) {
  using namespace kopt_strategy;
  constexpr int kR = KK / 2;
  constexpr int kCols = BX + KK - 1;
  constexpr int kTileRows = BY * RY + KK - 1;
  constexpr int kCount = kTileRows * kCols;
  constexpr int kRowUnroll = KK <= UNROLL_K ? RY + KK - 1 : 1;
  int const tx = static_cast<int>(threadIdx.x);
  int const ty = static_cast<int>(threadIdx.y);
  int const tid = ty * BX + tx;
  int const xb = static_cast<int>(blockIdx.x) * BX;         // first output column of the block
  int const yb = static_cast<int>(blockIdx.y) * (BY * RY);  // first output row of the block

  if (tid < kMaxK * kWPitch) {
    int const ky = tid / kWPitch;
    int const kx = tid - ky * kWPitch;
    wsm[tid] = (ky < KK && kx < KK) ? to_float(w[ky * KK + kx]) : 0.0f;
  }
  // Tile entry (r, c) holds in[yb - kR + r][xb - kR + c], 0 outside the image.
#pragma unroll
  for (int i0 = 0; i0 < kCount; i0 += kThreads) {
    int const i = i0 + tid;
    if (i < kCount) {
      int const r = i / kCols;
      int const c = i - r * kCols;
      int const gy = yb - kR + r;
      int const gx = xb - kR + c;
      bool const inside = gy >= 0 && gy < H && gx >= 0 && gx < W;
      tile[r * kPitch + c] = inside ? to_float(in[static_cast<long long>(gy) * W + gx]) : 0.0f;
    }
  }
  __syncthreads();

  float acc[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) acc[r] = 0.0f;
  // Outputs rows ty*RY + r (tile-relative) need tile rows ty*RY + r .. ty*RY + r + KK - 1.
  // Filters up to UNROLL_K: the row loop is unrolled and the taps live in registers. Larger ones: a
  // rolled row loop (register indices stay static; the taps of row ky are re-read as float4 from
  // shared memory), which keeps the whole window and filter out of registers for occupancy.
  float const* src = tile + ty * RY * kPitch + tx;
#pragma unroll kRowUnroll
  for (int j = 0; j < RY + KK - 1; ++j) {
    float v[KK];
#pragma unroll
    for (int kx = 0; kx < KK; ++kx) v[kx] = src[j * kPitch + kx];
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      int const ky = j - r;
      if (ky >= 0 && ky < KK) {
        float wrow[(KK + 3) / 4 * 4];
#pragma unroll
        for (int q = 0; q < KK; q += 4) {
          float4 const t4 = *reinterpret_cast<float4 const*>(wsm + ky * kWPitch + q);
          wrow[q] = t4.x;
          wrow[q + 1] = t4.y;
          wrow[q + 2] = t4.z;
          wrow[q + 3] = t4.w;
        }
#pragma unroll
        for (int kx = 0; kx < KK; ++kx) acc[r] = fmaf(wrow[kx], v[kx], acc[r]);
      }
    }
  }
  int const x = xb + tx;
  if (x < W) {
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      int const y = yb + ty * RY + r;
      if (y < H) out[static_cast<long long>(y) * W + x] = from_float<T>(acc[r]);
    }
  }
}

// Any K: each output straight from global memory, the reference's loop.
template <typename T>
__device__ void direct(T* __restrict__ out, T const* __restrict__ in, T const* __restrict__ w, int H, int W,
                       int K) {
  using namespace kopt_strategy;
  int const x = static_cast<int>(blockIdx.x) * BX + static_cast<int>(threadIdx.x);
  if (x >= W) return;
  for (int r = 0; r < RY; ++r) {
    int const y = static_cast<int>(blockIdx.y) * (BY * RY) + static_cast<int>(threadIdx.y) * RY + r;
    if (y >= H) return;
    float sum = 0.0f;
    for (int ky = 0; ky < K; ++ky) {
      int const iy = y + ky - K / 2;
      if (iy < 0 || iy >= H) continue;
      for (int kx = 0; kx < K; ++kx) {
        int const ix = x + kx - K / 2;
        if (ix < 0 || ix >= W) continue;
        sum = fmaf(to_float(w[ky * K + kx]), to_float(in[static_cast<long long>(iy) * W + ix]), sum);
      }
    }
    out[static_cast<long long>(y) * W + x] = from_float<T>(sum);
  }
}

}  // namespace conv2d_tiled

extern "C" __global__ void __launch_bounds__(BX * BY)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, const {{T}}* __restrict__ w, int H,
              int W, int K) {
  using namespace conv2d_tiled;
  __shared__ __align__(16) float tile[kRows * kPitch];
  __shared__ __align__(16) float wsm[kMaxK * kWPitch];
  static_assert(kThreads >= kMaxK * kWPitch, "one thread per filter slot");
  switch (K) {  // uniform over the grid: the barrier inside `tiled` is reached by every thread
    case 1: tiled<{{T}}, 1>(out, in, w, H, W, tile, wsm); break;
    case 3: tiled<{{T}}, 3>(out, in, w, H, W, tile, wsm); break;
    case 5: tiled<{{T}}, 5>(out, in, w, H, W, tile, wsm); break;
    case 7: tiled<{{T}}, 7>(out, in, w, H, W, tile, wsm); break;
    default: direct<{{T}}>(out, in, w, H, W, K); break;
  }
}
