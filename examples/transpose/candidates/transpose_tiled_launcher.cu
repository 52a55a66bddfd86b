// Launcher-mode candidate for examples/transpose: the same 32 x 32 shared-memory tiled kernel as
// transpose_tiled_kernel.cu (32 x 8 threads, one float of padding per tile row, coalesced loads and
// stores), launched by its own host function on a (ceil(cols/32), ceil(rows/32)) grid.

#include <cuda_runtime.h>

namespace {

constexpr int kTile = 32;
constexpr int kBlockRows = 8;

__global__ void __launch_bounds__(kTile * kBlockRows)
    transpose_tiled_kernel(float* __restrict__ out, const float* __restrict__ in, int rows, int cols) {
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
    int const out_row = c0 + i;
    int const out_col = r0 + tx;
    if (out_row < cols && out_col < rows) out[static_cast<long long>(out_row) * rows + out_col] = tile[tx][i];
  }
}

}  // namespace

extern "C" void transpose(float* out, const float* in, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  dim3 const block(kTile, kBlockRows);
  dim3 const grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  transpose_tiled_kernel<<<grid, block>>>(out, in, rows, cols);
}
