// Strategy shared_tile_transpose, transpose family (kernel mode): out (cols x rows) = in (rows x cols)
// transposed, both row-major. A block of (TILE / VEC) x (TILE / ROWS_PER_THREAD) threads moves one
// TILE x TILE tile: each thread reads ROWS_PER_THREAD rows of the tile, VEC consecutive elements per row
// with one vector load (coalesced along the input row), into shared memory; after a barrier it reads
// columns of the shared tile and writes them as rows of the output, VEC consecutive elements per store
// (coalesced along the output row). PAD elements of padding per shared row put the elements of a column
// in different banks. Vector accesses are used only when the row length is a multiple of VEC and the
// buffer is aligned to VEC elements; everything else (and every partial tile at the matrix edge) is
// element-wise, so any rows and cols work. Pure data movement: the result is bit-exact for any T.
//
// Knobs: TILE the square tile's side; ROWS_PER_THREAD tile rows moved by each thread; VEC elements per
// global access; PAD elements of padding per shared-memory row.
// kopt:knob TILE = [16, 32, 64]
// kopt:knob ROWS_PER_THREAD = [1, 2, 4, 8, 16]
// kopt:knob VEC = [1, 2, 4, 8]
// kopt:knob PAD = [0, 1, 2]
// kopt:constraint ROWS_PER_THREAD <= TILE && VEC * 4 <= TILE
// kopt:constraint (TILE / VEC) * (TILE / ROWS_PER_THREAD) >= 64
// kopt:constraint (TILE / VEC) * (TILE / ROWS_PER_THREAD) <= 1024
// kopt:launch grid=(ceil_div({{ARG3}}, TILE), ceil_div({{ARG2}}, TILE)) block=(TILE / VEC, TILE / ROWS_PER_THREAD) kernel={{ENTRY}}

#ifndef TILE
#define TILE 32
#endif
#ifndef ROWS_PER_THREAD
#define ROWS_PER_THREAD 4
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef PAD
#define PAD 1
#endif

namespace shared_tile_transpose {

using T = {{T}};
constexpr int kThreadsY = TILE / ROWS_PER_THREAD;
static_assert(TILE % VEC == 0 && TILE % ROWS_PER_THREAD == 0, "the tile splits evenly among the threads");

}  // namespace shared_tile_transpose

extern "C" __global__ void __launch_bounds__((TILE / VEC) * (TILE / ROWS_PER_THREAD))
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace shared_tile_transpose;
  using kopt_strategy::Pack;
  __shared__ T tile[TILE][TILE + PAD];
  int const tx = static_cast<int>(threadIdx.x) * VEC;  // first column of this thread within the tile
  int const ty = static_cast<int>(threadIdx.y);
  int const c0 = static_cast<int>(blockIdx.x) * TILE;
  int const r0 = static_cast<int>(blockIdx.y) * TILE;
  // Uniform over the launch: rows of `in` (of `out`) start VEC-aligned when cols (rows) is a multiple of VEC.
  bool const vector_in = VEC > 1 && cols % VEC == 0 && kopt_strategy::aligned_to(in, VEC * sizeof(T));
  bool const vector_out = VEC > 1 && rows % VEC == 0 && kopt_strategy::aligned_to(out, VEC * sizeof(T));

#pragma unroll
  for (int j = 0; j < ROWS_PER_THREAD; ++j) {
    int const i = ty + j * kThreadsY;  // row within the tile
    int const r = r0 + i;
    int const c = c0 + tx;
    T const* src = in + static_cast<long long>(r) * cols + c;
    if (vector_in && r < rows && c + VEC <= cols) {
      Pack<T, VEC> const p = kopt_strategy::load_pack<T, VEC>(src);
#pragma unroll
      for (int v = 0; v < VEC; ++v) tile[i][tx + v] = p.v[v];
    } else if (r < rows) {
#pragma unroll
      for (int v = 0; v < VEC; ++v) {
        if (c + v < cols) tile[i][tx + v] = src[v];
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ROWS_PER_THREAD; ++j) {
    int const i = ty + j * kThreadsY;  // column of the input tile = row of the output tile
    int const out_row = c0 + i;
    int const out_col = r0 + tx;
    if (out_row >= cols) continue;
    T* dst = out + static_cast<long long>(out_row) * rows + out_col;
    if (vector_out && out_col + VEC <= rows) {
      Pack<T, VEC> p;
#pragma unroll
      for (int v = 0; v < VEC; ++v) p.v[v] = tile[tx + v][i];
      kopt_strategy::store_pack<T, VEC>(dst, p);
    } else {
#pragma unroll
      for (int v = 0; v < VEC; ++v) {
        if (out_col + v < rows) dst[v] = tile[tx + v][i];
      }
    }
  }
}
