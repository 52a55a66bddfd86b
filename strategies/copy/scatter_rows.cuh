// Row scatter shared by scatter_rows_lanes (a plain store: index_copy_) and
// scatter_add_rows_lanes (an atomic add: index_add_, embedding backward), spliced by
// `// kopt:include scatter_rows.cuh` after the knobs LANES, BLOCK, ROWS, UNROLL and SPLIT: for i < n,
// d < dim, out[idx[i]][d] = src[i][d] (Assign) or out[idx[i]][d] += src[i][d] (Accumulate). Rows of out
// that no index names are not touched. Indices are trusted to lie in out, as the reference does; Assign
// needs them distinct (with a repeated index one of the rows wins, as in the reference: the result is not
// defined), Accumulate allows repeats. gather_rows.cuh mirrored: a group of LANES lanes of one warp owns
// ROWS consecutive source rows, reads their ROWS destination indices once (one broadcast load each) and
// then moves a column chunk of every row at a time, lane l taking words l, l + LANES, ... (UNROLL of
// them), all ROWS * UNROLL loads of src issued before any store, so the reads stream and the writes of a
// row are coalesced. A word is 16 bytes when a row is a whole number of 16-byte words and both matrices
// are 16-byte aligned (every row then starts on a 16-byte boundary), otherwise one element. Blocks are
// (row block, part): SPLIT blocks share a row block and take its column chunks in turn, so a few long rows
// still fill the GPU. No shared memory, no barrier; offsets in 64 bits (idx * dim passes 2^31 for large
// matrices).

static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "a power-of-two part of a warp");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");
static_assert(ROWS >= 1 && UNROLL >= 1 && SPLIT >= 1, "positive knobs");

namespace kopt_scatter {

constexpr int kGroups = BLOCK / LANES;  // row groups per block

// out = v: the bits unchanged (a 16-byte word or one element).
struct Assign {
  template <typename W>
  static __device__ __forceinline__ void put(W* out, W const& v) {
    *out = v;
  }
};

// out += v by atomics, so that rows named several times add up. A 16-byte word is 4 FP32 or 8 BF16
// values: on sm_90 and later one vector atomic per word (atomicAdd on a float4, PTX atom.global.v4.f32.add;
// red.global.add.noftz.v4.bf16x2 for BF16; 16-byte aligned), before sm_90 one atomic per float or per BF16
// pair (the BF16 pair atomic is a compare-and-swap loop there). Each add to a BF16 value rounds the
// running BF16 sum, in whatever order the atomics arrive.
template <typename T>
struct Accumulate {
  static __device__ __forceinline__ void put(uint4* out, uint4 const& v) {
    if constexpr (sizeof(T) == 4) {
#if __CUDA_ARCH__ >= 900
      atomicAdd(reinterpret_cast<float4*>(out), make_float4(__uint_as_float(v.x), __uint_as_float(v.y),
                                                           __uint_as_float(v.z), __uint_as_float(v.w)));
#else
      float* const f = reinterpret_cast<float*>(out);
      atomicAdd(f + 0, __uint_as_float(v.x));
      atomicAdd(f + 1, __uint_as_float(v.y));
      atomicAdd(f + 2, __uint_as_float(v.z));
      atomicAdd(f + 3, __uint_as_float(v.w));
#endif
    } else {
#if __CUDA_ARCH__ >= 900
      asm volatile("red.global.add.noftz.v4.bf16x2 [%0], {%1, %2, %3, %4};" ::"l"(out), "r"(v.x), "r"(v.y),
                   "r"(v.z), "r"(v.w)
                   : "memory");
#else
      __nv_bfloat162* const p = reinterpret_cast<__nv_bfloat162*>(out);
      unsigned const w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int k = 0; k < 4; ++k) atomicAdd(p + k, *reinterpret_cast<__nv_bfloat162 const*>(&w[k]));
#endif
    }
  }
  static __device__ __forceinline__ void put(T* out, T const& v) { atomicAdd(out, v); }
};

// Moves this lane's share of the chunks of part `part` of a group's `rows` rows (1 <= rows <= ROWS), W a
// 16-byte word or one element; `width` words per row; dst[j] is the row of out that source row
// first_row + j goes to.
template <typename Op, typename W>
__device__ __forceinline__ void move_rows(W* __restrict__ out, W const* __restrict__ src,
                                          long long const (&dst)[ROWS], long long first_row, int rows,
                                          int width, int lane, int part) {
  constexpr int kChunk = LANES * UNROLL;  // words of a row per group and pass
#pragma unroll 1
  for (int c0 = part * kChunk; c0 < width; c0 += SPLIT * kChunk) {
    W v[ROWS][UNROLL];
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        int const c = c0 + u * LANES + lane;
        if (j < rows && c < width) v[j][u] = src[(first_row + j) * width + c];
      }
    }
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        int const c = c0 + u * LANES + lane;
        if (j < rows && c < width) Op::put(out + dst[j] * width + c, v[j][u]);
      }
    }
  }
}

template <typename T, typename I, typename Op>
__device__ __forceinline__ void run(T* __restrict__ out, T const* __restrict__ src, I const* __restrict__ idx,
                                    int n, int dim) {
  if (n <= 0 || dim <= 0) return;
  int const group = static_cast<int>(threadIdx.x) / LANES;
  int const lane = static_cast<int>(threadIdx.x) % LANES;
  long long const row_block = static_cast<long long>(blockIdx.x) / SPLIT;
  int const part = static_cast<int>(blockIdx.x % SPLIT);
  long long const first_row = (row_block * kGroups + group) * ROWS;
  if (first_row >= n) return;  // no barrier or shuffle below: a group past the end just leaves
  int const rows = n - first_row < ROWS ? static_cast<int>(n - first_row) : ROWS;
  long long dst[ROWS];
#pragma unroll
  for (int j = 0; j < ROWS; ++j) dst[j] = j < rows ? static_cast<long long>(idx[first_row + j]) : 0;
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 16-byte word
  bool const packed =
      dim % kVec == 0 && kopt_strategy::aligned_to(out, 16u) && kopt_strategy::aligned_to(src, 16u);
  if (packed) {
    move_rows<Op, uint4>(reinterpret_cast<uint4*>(out), reinterpret_cast<uint4 const*>(src), dst, first_row,
                         rows, dim / kVec, lane, part);
  } else {
    move_rows<Op, T>(out, src, dst, first_row, rows, dim, lane, part);
  }
}

}  // namespace kopt_scatter
