// Kernel-mode candidate for examples/transpose (device code only; kopt launches it).
// Each 32 x 8 block moves a 32 x 32 tile: it reads the tile's rows coalesced into shared memory (each
// thread 4 rows, 8 apart), then writes the tile's columns as rows of the output, again coalesced. The
// shared tile has one float of padding per row, so reading a column touches 32 different banks.
// Elements outside the matrix are neither read nor written, so any rows and cols work.
// kopt:launch grid=(ceil_div(cols, 32), ceil_div(rows, 32)) block=(32, 8)

namespace {

constexpr int kTile = 32;
constexpr int kBlockRows = 8;

}  // namespace

extern "C" __global__ void __launch_bounds__(kTile * kBlockRows)
    transpose(float* __restrict__ out, const float* __restrict__ in, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  int const tx = static_cast<int>(threadIdx.x);
  int const ty = static_cast<int>(threadIdx.y);
  int const r0 = static_cast<int>(blockIdx.y) * kTile;
  int const c0 = static_cast<int>(blockIdx.x) * kTile;

#pragma unroll
  for (int i = ty; i < kTile; i += kBlockRows) {
    int const r = r0 + i;
    int const c = c0 + tx;
    if (r < rows && c < cols) tile[i][tx] = in[static_cast<long long>(r) * cols + c];
  }
  __syncthreads();
#pragma unroll
  for (int i = ty; i < kTile; i += kBlockRows) {
    int const out_row = c0 + i;   // a column of the input
    int const out_col = r0 + tx;  // a row of the input
    if (out_row < cols && out_col < rows) out[static_cast<long long>(out_row) * rows + out_col] = tile[tx][i];
  }
}
