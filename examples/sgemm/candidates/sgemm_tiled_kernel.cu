// Kernel-mode candidate for examples/sgemm (device code only; kopt launches it).
// Each 256-thread block computes a 128 x 128 tile of C, stepping through K in slices of 8: the
// slice of A (stored transposed, k-major) and of B go to shared memory, then every thread
// accumulates an 8 x 8 block of C in registers from 8 + 8 shared-memory values per k (64 FMAs per
// 16 loads). Out-of-range elements load as zero and are never stored, so any M, N, K works.
// The products are accumulated in increasing k, the same order as the reference.
// kopt:launch grid=(ceil_div(N, 128), ceil_div(M, 128)) block=(256)

namespace {

constexpr int kTileM = 128;
constexpr int kTileN = 128;
constexpr int kTileK = 8;
constexpr int kThreadM = 8;
constexpr int kThreadN = 8;
constexpr int kThreads = (kTileM / kThreadM) * (kTileN / kThreadN);  // 256
constexpr int kLoadsPerThread = kTileM * kTileK / kThreads;          // 4 (same for B)

}  // namespace

extern "C" __global__ void __launch_bounds__(256) sgemm(float* __restrict__ C, const float* __restrict__ A,
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
