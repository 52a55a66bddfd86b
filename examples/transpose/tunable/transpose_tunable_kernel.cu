// Kernel-mode candidate for examples/transpose with a tuning space (docs/tuning.md).
// A block of (TILE / VEC) x BLOCK_ROWS threads moves TILES square tiles of TILE x TILE floats, one
// below the other: it reads a tile's rows into shared memory (each thread VEC consecutive floats of a
// row, rows BLOCK_ROWS apart), then writes the tile's columns as rows of the output (VEC consecutive
// floats per thread again). PAD floats of padding per shared row spread a column over the banks.
// Vector accesses are used when the row length (cols for loads, rows for stores) is a multiple of VEC
// and the buffer is VEC * 4-byte aligned; every other access, and every vector that crosses the
// matrix edge, is scalar, so any rows and cols work.
//
// kopt:knob TILE = [16, 32, 64]
// kopt:knob BLOCK_ROWS = [1, 2, 4, 8, 16, 32]
// kopt:knob VEC = [1, 2, 4]
// kopt:knob PAD = [0, 1]
// kopt:knob TILES = [1, 2, 4]
// kopt:constraint BLOCK_ROWS <= TILE
// Between 32 and 1024 threads per block:
// kopt:constraint (TILE / VEC) * BLOCK_ROWS >= 32 && (TILE / VEC) * BLOCK_ROWS <= 1024
// kopt:launch grid=(ceil_div(cols, TILE), ceil_div(rows, TILE * TILES)) block=(TILE / VEC, BLOCK_ROWS)

// Defaults, so that the file also compiles on its own.
#ifndef TILE
#define TILE 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef PAD
#define PAD 1
#endif
#ifndef TILES
#define TILES 1
#endif

namespace transpose_tunable {

static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");
static_assert(TILE % VEC == 0 && TILE % BLOCK_ROWS == 0, "the tile splits evenly among the threads");

template <int V>
struct Vector;
template <>
struct Vector<1> {
  using type = float;
  static __device__ void unpack(float (&out)[1], float v) { out[0] = v; }
  static __device__ float pack(float const (&in)[1]) { return in[0]; }
};
template <>
struct Vector<2> {
  using type = float2;
  static __device__ void unpack(float (&out)[2], float2 v) {
    out[0] = v.x;
    out[1] = v.y;
  }
  static __device__ float2 pack(float const (&in)[2]) { return make_float2(in[0], in[1]); }
};
template <>
struct Vector<4> {
  using type = float4;
  static __device__ void unpack(float (&out)[4], float4 v) {
    out[0] = v.x;
    out[1] = v.y;
    out[2] = v.z;
    out[3] = v.w;
  }
  static __device__ float4 pack(float const (&in)[4]) { return make_float4(in[0], in[1], in[2], in[3]); }
};

}  // namespace transpose_tunable

extern "C" __global__ void __launch_bounds__((TILE / VEC) * BLOCK_ROWS)
                                                 transpose(float* __restrict__ out,
                                                           const float* __restrict__ in, int rows, int cols) {
  using namespace transpose_tunable;
  using Vec = typename Vector<VEC>::type;
  __shared__ float tile[TILE][TILE + PAD];
  int const tx = static_cast<int>(threadIdx.x) * VEC;  // first column of this thread within the tile
  int const ty = static_cast<int>(threadIdx.y);
  int const c0 = static_cast<int>(blockIdx.x) * TILE;
  // Uniform per launch: rows of in (of out) start VEC-aligned when cols (rows) is a multiple of VEC.
  bool const vec_in =
      VEC > 1 && cols % VEC == 0 && reinterpret_cast<unsigned long long>(in) % (4u * VEC) == 0;
  bool const vec_out =
      VEC > 1 && rows % VEC == 0 && reinterpret_cast<unsigned long long>(out) % (4u * VEC) == 0;
  float values[VEC];

  for (int t = 0; t < TILES; ++t) {
    int const r0 = (static_cast<int>(blockIdx.y) * TILES + t) * TILE;
    if (r0 >= rows) break;       // uniform over the block
    if (t > 0) __syncthreads();  // the previous tile has been written out
#pragma unroll
    for (int i = ty; i < TILE; i += BLOCK_ROWS) {
      int const r = r0 + i;
      int const c = c0 + tx;
      const float* src = in + static_cast<long long>(r) * cols + c;
      if (vec_in && r < rows && c + VEC <= cols) {
        Vector<VEC>::unpack(values, *reinterpret_cast<const Vec*>(src));
      } else {
#pragma unroll
        for (int v = 0; v < VEC; ++v) values[v] = (r < rows && c + v < cols) ? src[v] : 0.0f;
      }
#pragma unroll
      for (int v = 0; v < VEC; ++v) tile[i][tx + v] = values[v];
    }
    __syncthreads();
#pragma unroll
    for (int i = ty; i < TILE; i += BLOCK_ROWS) {
      int const out_row = c0 + i;   // a column of the input
      int const out_col = r0 + tx;  // the first of VEC rows of the input
#pragma unroll
      for (int v = 0; v < VEC; ++v) values[v] = tile[tx + v][i];
      float* dst = out + static_cast<long long>(out_row) * rows + out_col;
      if (vec_out && out_row < cols && out_col + VEC <= rows) {
        *reinterpret_cast<Vec*>(dst) = Vector<VEC>::pack(values);
      } else {
#pragma unroll
        for (int v = 0; v < VEC; ++v) {
          if (out_row < cols && out_col + v < rows) dst[v] = values[v];
        }
      }
    }
  }
}
