// Strategy pool2d_smem_tile: 2D pooling of NCHW planes, K x K windows, stride S, no padding ("valid"):
// out[p][y][x] = finish(combine over 0 <= ky, kx < K of in[p][y*S + ky][x*S + kx], K*K) for every plane p
// of the N*C planes, 0 <= y < Ho = (H-K)/S + 1, 0 <= x < Wo = (W-K)/S + 1; any K and S at run time.
// A block of THREADS threads owns a TH x TW tile of outputs of one plane (one-dimensional grid: x tiles
// fastest, then y tiles, then planes, so any N*C fits and tiles sharing halo rows run close together).
// It stages the tile's input, (TH-1)*S + K rows of (TW-1)*S + K columns (the halo included), in shared
// memory once, converted to FP32: consecutive threads load consecutive 16-byte pieces of a row (element
// loads when W is not a multiple of 4 FP32 / 8 BF16 values), kBatch loads in flight per thread before
// any store, so every input is read from DRAM once even when windows overlap (S < K) and every load is
// coalesced. Staged rows are padded by one value every 32 columns, which makes both the staging stores
// (each thread writes 4 or 8 consecutive values) and the stride-S window reads free of bank conflicts
// for S = 1, 2 and 4. Then each thread computes outputs of the tile (threads along x: coalesced stores)
// either straight from the staged tile (SEP = 0: K*K shared-memory reads per output, best for S close to
// K such as 2x2/2 and 3x3/2) or in two separable passes (SEP = 1: each staged row is first combined over
// kx into TW row values, then each output combines K of them over ky: about K*S + K reads per output,
// fewer for overlapping windows, S < K, and large K; it needs `combine` associative and commutative).
// K = 2 and 3 run unrolled; rows no window touches (S > K) are neither loaded nor combined. A tile that
// does not fit the dynamic shared memory the launch gave (a very large K or S) takes a direct path, so
// correctness never depends on K or S. The launch line's shared= expression and the kernel's layout are
// the same formula. Offsets are 64-bit. Knobs: THREADS, TW (output columns per tile, a multiple of 8 so
// that tiles start 16-byte aligned), TH (output rows per tile), SEP (separable passes).
//
// kopt:knob THREADS = [128, 256, 512]
// kopt:knob TW = [32, 64, 128]
// kopt:knob TH = [2, 4, 8, 16]
// kopt:knob SEP = [0, 1]
// kopt:constraint TW * TH >= THREADS && TW * TH <= 8 * THREADS
// kopt:launch grid=(ceil_div(({{ARG5}} - {{ARG6}}) / {{ARG7}} + 1, TW) * ceil_div(({{ARG4}} - {{ARG6}}) / {{ARG7}} + 1, TH) * {{ARG2}} * {{ARG3}}) block=(THREADS) shared=(min(4 * ((TH - 1) * {{ARG7}} + {{ARG6}}) * ((TW - 1) * {{ARG7}} + {{ARG6}} + 7 + ((TW - 1) * {{ARG7}} + {{ARG6}} + 7) / 32 + SEP * TW), 163840)) kernel={{ENTRY}}

#ifndef THREADS
#define THREADS 256
#endif
#ifndef TW
#define TW 64
#endif
#ifndef TH
#define TH 8
#endif
#ifndef SEP
#define SEP 0
#endif

static_assert(TW % 8 == 0, "tiles start at a multiple of 8 input columns: 16-byte aligned loads");

namespace pool2d_smem_tile {

// kopt:include pool_op.cuh

constexpr int kBatch = 4;  // loads in flight per thread before their shared-memory stores

// Column c of a staged row lives at c + c/32.
__device__ __forceinline__ int swz(int c) { return c + (c >> 5); }

// Stages rows iy0 .. iy0+IH-1, columns ix0 .. ix0+LW-1 (LW a multiple of P, ix0 too) as FP32, 0 outside
// the image and in rows no window reads.
template <typename T, int P>
__device__ __forceinline__ void load_tile(float* tile, T const* __restrict__ in, int H, int W, int K, int S,
                                          long long plane, int iy0, int ix0, int IH, int LW, int IP) {
  using namespace kopt_strategy;
  int const per_row = LW / P;
  int const items = IH * per_row;
  int const tid = static_cast<int>(threadIdx.x);
  bool const every_row = S <= K;
  T const zero = from_float<T>(0.0f);
#pragma unroll 1
  for (int base = 0; base < items; base += THREADS * kBatch) {
    Pack<T, P> buf[kBatch];
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      int const item = base + u * THREADS + tid;
      int const r = item / per_row;
      int const c = ix0 + (item - r * per_row) * P;
      int const iy = iy0 + r;
      bool const ok = item < items && iy < H && c < W && (every_row || r % S < K);
      if (ok) {  // P divides W: a load is wholly inside the row or wholly outside
        buf[u] = load_pack<T, P>(in + (plane * H + iy) * static_cast<long long>(W) + c);
      } else {
#pragma unroll
        for (int e = 0; e < P; ++e) buf[u].v[e] = zero;
      }
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      int const item = base + u * THREADS + tid;
      if (item < items) {
        int const r = item / per_row;
        int const c = (item - r * per_row) * P;
        float* dst = tile + r * IP;
#pragma unroll
        for (int e = 0; e < P; ++e) dst[swz(c + e)] = to_float(buf[u].v[e]);
      }
    }
  }
}

// SEP = 1, row pass: hs[i][ox] = combine over kx of tile[i][ox*S + kx]. KK > 0: K known at compile time.
template <int KK>
__device__ __forceinline__ void row_pass(float* hs, float const* tile, int IH, int IP, int K, int S) {
  bool const every_row = S <= K;
#pragma unroll 1
  for (int item = static_cast<int>(threadIdx.x); item < IH * TW; item += THREADS) {
    int const ox = item % TW;
    int const i = item / TW;
    if (!every_row && i % S >= K) continue;
    float const* row = tile + i * IP;
    int const c0 = ox * S;
    float acc = PoolOp::identity();
    if constexpr (KK > 0) {
#pragma unroll
      for (int kx = 0; kx < KK; ++kx) acc = PoolOp::combine(acc, row[swz(c0 + kx)]);
    } else {
#pragma unroll 4
      for (int kx = 0; kx < K; ++kx) acc = PoolOp::combine(acc, row[swz(c0 + kx)]);
    }
    hs[item] = acc;  // item == i * TW + ox
  }
}

// SEP = 1, column pass: out[oy][ox] = finish(combine over ky of hs[oy*S + ky][ox]).
template <typename T, int KK>
__device__ __forceinline__ void column_pass(T* __restrict__ out, float const* hs, int K, int S, int Ho, int Wo,
                                            long long plane, int oy0, int ox0) {
  using namespace kopt_strategy;
  float const count = static_cast<float>(K * K);
#pragma unroll 1
  for (int item = static_cast<int>(threadIdx.x); item < TH * TW; item += THREADS) {
    int const ox = item % TW;
    int const oy = item / TW;
    int const x = ox0 + ox;
    int const y = oy0 + oy;
    if (x >= Wo || y >= Ho) continue;
    float const* col = hs + oy * S * TW + ox;
    float acc = PoolOp::identity();
    if constexpr (KK > 0) {
#pragma unroll
      for (int ky = 0; ky < KK; ++ky) acc = PoolOp::combine(acc, col[ky * TW]);
    } else {
#pragma unroll 4
      for (int ky = 0; ky < K; ++ky) acc = PoolOp::combine(acc, col[ky * TW]);
    }
    out[(plane * Ho + y) * static_cast<long long>(Wo) + x] = from_float<T>(PoolOp::finish(acc, count));
  }
}

// SEP = 0: out[oy][ox] = finish(combine over ky, kx of tile[oy*S + ky][ox*S + kx]), in (ky, kx) order.
template <typename T, int KK>
__device__ __forceinline__ void tile_pass(T* __restrict__ out, float const* tile, int IP, int K, int S, int Ho,
                                          int Wo, long long plane, int oy0, int ox0) {
  using namespace kopt_strategy;
  float const count = static_cast<float>(K * K);
#pragma unroll 1
  for (int item = static_cast<int>(threadIdx.x); item < TH * TW; item += THREADS) {
    int const ox = item % TW;
    int const oy = item / TW;
    int const x = ox0 + ox;
    int const y = oy0 + oy;
    if (x >= Wo || y >= Ho) continue;
    float const* window = tile + oy * S * IP;
    int const c0 = ox * S;
    float acc = PoolOp::identity();
    if constexpr (KK > 0) {
#pragma unroll
      for (int ky = 0; ky < KK; ++ky)
#pragma unroll
        for (int kx = 0; kx < KK; ++kx) acc = PoolOp::combine(acc, window[ky * IP + swz(c0 + kx)]);
    } else {
#pragma unroll 1
      for (int ky = 0; ky < K; ++ky)
#pragma unroll 4
        for (int kx = 0; kx < K; ++kx) acc = PoolOp::combine(acc, window[ky * IP + swz(c0 + kx)]);
    }
    out[(plane * Ho + y) * static_cast<long long>(Wo) + x] = from_float<T>(PoolOp::finish(acc, count));
  }
}

// A tile too large for the shared memory given: each output straight from global memory.
template <typename T>
__device__ __forceinline__ void direct(T* __restrict__ out, T const* __restrict__ in, int H, int W, int K, int S,
                                      int Ho, int Wo, long long plane, int oy0, int ox0) {
  using namespace kopt_strategy;
  float const count = static_cast<float>(K * K);
#pragma unroll 1
  for (int item = static_cast<int>(threadIdx.x); item < TH * TW; item += THREADS) {
    int const x = ox0 + item % TW;
    int const y = oy0 + item / TW;
    if (x >= Wo || y >= Ho) continue;
    float acc = PoolOp::identity();
#pragma unroll 1
    for (int ky = 0; ky < K; ++ky) {
      T const* row = in + (plane * H + static_cast<long long>(y) * S + ky) * static_cast<long long>(W) +
                     static_cast<long long>(x) * S;
#pragma unroll 1
      for (int kx = 0; kx < K; ++kx) acc = PoolOp::combine(acc, to_float(row[kx]));
    }
    out[(plane * Ho + y) * static_cast<long long>(Wo) + x] = from_float<T>(PoolOp::finish(acc, count));
  }
}

}  // namespace pool2d_smem_tile

extern "C" __global__ void __launch_bounds__(THREADS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int N, int C, int H, int W, int K, int S) {
  using namespace kopt_strategy;
  using namespace pool2d_smem_tile;
  extern __shared__ __align__(16) float smem[];
  if (K < 1 || S < 1 || H < K || W < K) return;
  int const Ho = (H - K) / S + 1;
  int const Wo = (W - K) / S + 1;
  int const tiles_x = ceil_div(Wo, TW);
  int const tiles_y = ceil_div(Ho, TH);
  unsigned b = blockIdx.x;
  int const ox0 = static_cast<int>(b % static_cast<unsigned>(tiles_x)) * TW;
  b /= static_cast<unsigned>(tiles_x);
  int const oy0 = static_cast<int>(b % static_cast<unsigned>(tiles_y)) * TH;
  long long const plane = static_cast<long long>(b / static_cast<unsigned>(tiles_y));
  if (plane >= static_cast<long long>(N) * C) return;  // the whole block

  // The layout, as the launch line's shared= expression: IH rows of IP floats (the staged input, at most
  // L = (TW-1)*S + K + 7 columns, one pad per 32), then for SEP = 1 IH rows of TW row values.
  long long const IH = static_cast<long long>(TH - 1) * S + K;
  long long const L = static_cast<long long>(TW - 1) * S + K + 7;
  long long const IP = L + L / 32;
  unsigned given = 0;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(given));
  if (4 * IH * (IP + SEP * TW) > static_cast<long long>(given)) {  // uniform over the grid
    direct<{{T}}>(out, in, H, W, K, S, Ho, Wo, plane, oy0, ox0);
    return;
  }
  float* tile = smem;
  int const iy0 = oy0 * S;
  int const ix0 = ox0 * S;
  int const IW = (TW - 1) * S + K;  // input columns the tile's windows read
  constexpr int P = 16 / static_cast<int>(sizeof({{T}}));
  if (W % P == 0 && aligned_to(in, 16)) {  // ix0 is a multiple of TW, so of 8
    load_tile<{{T}}, P>(tile, in, H, W, K, S, plane, iy0, ix0, static_cast<int>(IH), (IW + P - 1) / P * P,
                        static_cast<int>(IP));
  } else {
    load_tile<{{T}}, 1>(tile, in, H, W, K, S, plane, iy0, ix0, static_cast<int>(IH), IW, static_cast<int>(IP));
  }
  __syncthreads();
#if SEP
  float* hs = smem + IH * IP;
  switch (K) {  // uniform: every thread reaches the barrier below
    case 2: row_pass<2>(hs, tile, static_cast<int>(IH), static_cast<int>(IP), K, S); break;
    case 3: row_pass<3>(hs, tile, static_cast<int>(IH), static_cast<int>(IP), K, S); break;
    default: row_pass<0>(hs, tile, static_cast<int>(IH), static_cast<int>(IP), K, S); break;
  }
  __syncthreads();
  switch (K) {
    case 2: column_pass<{{T}}, 2>(out, hs, K, S, Ho, Wo, plane, oy0, ox0); break;
    case 3: column_pass<{{T}}, 3>(out, hs, K, S, Ho, Wo, plane, oy0, ox0); break;
    default: column_pass<{{T}}, 0>(out, hs, K, S, Ho, Wo, plane, oy0, ox0); break;
  }
#else
  switch (K) {
    case 2: tile_pass<{{T}}, 2>(out, tile, static_cast<int>(IP), K, S, Ho, Wo, plane, oy0, ox0); break;
    case 3: tile_pass<{{T}}, 3>(out, tile, static_cast<int>(IP), K, S, Ho, Wo, plane, oy0, ox0); break;
    default: tile_pass<{{T}}, 0>(out, tile, static_cast<int>(IP), K, S, Ho, Wo, plane, oy0, ox0); break;
  }
#endif
}
