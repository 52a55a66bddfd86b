// Row gather of gather_rows_lanes (int32 or int64 indices: the index type of its contract), spliced
// by `// kopt:include gather_rows.cuh` after the knobs LANES, BLOCK, ROWS, UNROLL and SPLIT:
// out[i][d] = table[idx[i]][d] for i < n, d < dim (an embedding lookup; indices are trusted to lie in the
// table, as the reference does). A group of LANES lanes of one warp owns ROWS consecutive output rows: it
// reads their ROWS indices once (one broadcast load each) and then copies a column chunk of every row at
// a time, lane l taking words l, l + LANES, ... (UNROLL of them), all ROWS * UNROLL loads issued before any
// store. A word is 16 bytes when a row is a whole number of 16-byte words and both matrices are 16-byte
// aligned (every row then starts on a 16-byte boundary), otherwise one element (still coalesced). Bits are
// copied unchanged (no conversion), so the result is exact. Blocks are (row block, part): SPLIT blocks
// share a row block and take its column chunks in turn, so a few long rows still fill the GPU. No shared
// memory, no barrier; offsets in 64 bits (idx * dim passes 2^31 for large tables).

static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "a power-of-two part of a warp");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");
static_assert(ROWS >= 1 && UNROLL >= 1 && SPLIT >= 1, "positive knobs");

namespace gather_rows {

constexpr int kGroups = BLOCK / LANES;  // row groups per block

// Copies this lane's share of the chunks of part `part` of a group's `rows` rows (1 <= rows <= ROWS), W a
// 16-byte word or one element; `width` words per row.
template <typename W>
__device__ __forceinline__ void copy_rows(W* __restrict__ out, W const* __restrict__ table,
                                          long long const (&src)[ROWS], long long first_row, int rows,
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
        if (j < rows && c < width) v[j][u] = table[src[j] * width + c];
      }
    }
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        int const c = c0 + u * LANES + lane;
        if (j < rows && c < width) out[(first_row + j) * width + c] = v[j][u];
      }
    }
  }
}

template <typename T, typename I>
__device__ __forceinline__ void run(T* __restrict__ out, T const* __restrict__ table,
                                    I const* __restrict__ idx, int n, int dim) {
  if (n <= 0 || dim <= 0) return;
  int const group = static_cast<int>(threadIdx.x) / LANES;
  int const lane = static_cast<int>(threadIdx.x) % LANES;
  long long const row_block = static_cast<long long>(blockIdx.x) / SPLIT;
  int const part = static_cast<int>(blockIdx.x % SPLIT);
  long long const first_row = (row_block * kGroups + group) * ROWS;
  if (first_row >= n) return;  // no barrier or shuffle below: a group past the end just leaves
  int const rows = n - first_row < ROWS ? static_cast<int>(n - first_row) : ROWS;
  long long src[ROWS];
#pragma unroll
  for (int j = 0; j < ROWS; ++j) src[j] = j < rows ? static_cast<long long>(idx[first_row + j]) : 0;
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 16-byte word
  bool const packed =
      dim % kVec == 0 && kopt_strategy::aligned_to(out, 16u) && kopt_strategy::aligned_to(table, 16u);
  if (packed) {
    copy_rows<uint4>(reinterpret_cast<uint4*>(out), reinterpret_cast<uint4 const*>(table), src, first_row,
                     rows, dim / kVec, lane, part);
  } else {
    copy_rows<T>(out, table, src, first_row, rows, dim, lane, part);
  }
}

}  // namespace gather_rows
