// Launcher-mode candidate for examples/sgemm: the same 128 x 128 shared-memory tiled kernel as
// sgemm_tiled_kernel.cu (8 x 8 outputs per thread in registers, K slices of 8, zero-filled partial
// tiles), launched by its own host function on a (ceil(N/128), ceil(M/128)) grid of 256 threads.

#include <cuda_runtime.h>

namespace {

constexpr int kTileM = 128;
constexpr int kTileN = 128;
constexpr int kTileK = 8;
constexpr int kThreadM = 8;
constexpr int kThreadN = 8;
constexpr int kThreads = (kTileM / kThreadM) * (kTileN / kThreadN);  // 256
constexpr int kLoadsPerThread = kTileM * kTileK / kThreads;          // 4 (same for B)

__global__ void __launch_bounds__(256) sgemm_tiled_kernel(float* __restrict__ C, const float* __restrict__ A,
                                                          const float* __restrict__ B, int M, int N, int K) {
  __shared__ float a_tile[kTileK][kTileM];  // a_tile[k][m] = A[row0 + m][k0 + k]
  __shared__ float b_tile[kTileK][kTileN];  // b_tile[k][n] = B[k0 + k][col0 + n]

  int const tid = threadIdx.x;
  int const row0 = blockIdx.y * kTileM;
  int const col0 = blockIdx.x * kTileN;
  int const thread_row = (tid / (kTileN / kThreadN)) * kThreadM;
  int const thread_col = (tid % (kTileN / kThreadN)) * kThreadN;

  float acc[kThreadM][kThreadN] = {};
  float a_frag[kThreadM];
  float b_frag[kThreadN];

  for (int k0 = 0; k0 < K; k0 += kTileK) {
#pragma unroll
    for (int i = 0; i < kLoadsPerThread; ++i) {
      int const e = tid + i * kThreads;
      int const m = e / kTileK;  // A: 8 consecutive threads read one row's 8 k values
      int const ka = e % kTileK;
      int const gm = row0 + m;
      int const gka = k0 + ka;
      a_tile[ka][m] = (gm < M && gka < K) ? A[static_cast<long long>(gm) * K + gka] : 0.0f;
      int const kb = e / kTileN;  // B: a warp reads 32 consecutive columns of one row
      int const n = e % kTileN;
      int const gkb = k0 + kb;
      int const gn = col0 + n;
      b_tile[kb][n] = (gkb < K && gn < N) ? B[static_cast<long long>(gkb) * N + gn] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTileK; ++k) {
#pragma unroll
      for (int i = 0; i < kThreadM; ++i) a_frag[i] = a_tile[k][thread_row + i];
#pragma unroll
      for (int j = 0; j < kThreadN; ++j) b_frag[j] = b_tile[k][thread_col + j];
#pragma unroll
      for (int i = 0; i < kThreadM; ++i) {
#pragma unroll
        for (int j = 0; j < kThreadN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
      }
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < kThreadM; ++i) {
    int const gm = row0 + thread_row + i;
    if (gm >= M) break;
#pragma unroll
    for (int j = 0; j < kThreadN; ++j) {
      int const gn = col0 + thread_col + j;
      if (gn < N) C[static_cast<long long>(gm) * N + gn] = acc[i][j];
    }
  }
}

}  // namespace

extern "C" void sgemm(float* C, const float* A, const float* B, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 const grid((N + kTileN - 1) / kTileN, (M + kTileM - 1) / kTileM);
  sgemm_tiled_kernel<<<grid, kThreads>>>(C, A, B, M, N, K);
}
