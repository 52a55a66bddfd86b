// Strategy batched_smem_register_tiled (family batched_gemm, FP32 and BF16 storage, kernel mode).
// Batched: C[b] = A[b] * B[b] for b < batch, matrices packed contiguously (A[b] at b*M*K, B[b] at
// b*K*N, C[b] at b*M*N); blockIdx.z is the batch index, the rest is the kernel of smem_register_tiled.
// C = A * B, row-major A (M x K), B (K x N), C (M x N), FP32 accumulation, one rounding to T at the end.
// Each block computes a BM x BN tile of C, stepping through K in slices of BK. A slice of A is stored in
// shared memory transposed (k-major, rows padded by 4 floats) and a slice of B as is, both converted to
// float. Every thread accumulates a TM x TN block of C in registers; its rows are TM / 4 groups of 4
// consecutive rows spaced BM / (TM / 4) apart (columns likewise), so that every fragment is one aligned
// float4 read from shared memory and the threads of a warp read consecutive float4 (no bank conflicts).
// Shared memory is double-buffered: the next slice is loaded from global memory into registers (4-element
// vectors when the rows are aligned, a scalar predicated path otherwise and at every edge) while the
// current slice is multiplied, then stored into the other buffer (one barrier per slice). Products are
// accumulated in increasing k, like the reference. Any M, N, K (including 0) and any alignment work.
// Knobs: BM, BN (block tile), BK (K slice), TM, TN (register tile per thread: 4 or 8).
//
// kopt:knob BM = [32, 64, 128, 256]
// kopt:knob BN = [32, 64, 128, 256]
// kopt:knob BK = [8, 16, 32]
// kopt:knob TM = [4, 8]
// kopt:knob TN = [4, 8]
// Threads per block between 64 and 256:
// kopt:constraint (BM / TM) * (BN / TN) >= 64 && (BM / TM) * (BN / TN) <= 256
// Every thread loads the same number of 4-element vectors of each slice:
// kopt:constraint (BM * BK) % ((BM / TM) * (BN / TN) * 4) == 0
// kopt:constraint (BK * BN) % ((BM / TM) * (BN / TN) * 4) == 0
// A thread stages at most 32 floats of each slice in registers:
// kopt:constraint (BM + BN) * BK <= 32 * (BM / TM) * (BN / TN)
// Static shared memory (two buffers) at most 48 KiB:
// kopt:constraint 8 * BK * (BM + 4 + BN) <= 49152
// kopt:launch grid=(ceil_div({{ARG5}}, BN), ceil_div({{ARG4}}, BM), {{ARG3}}) block=((BM / TM) * (BN / TN)) kernel={{ENTRY}}
// kopt:include smem_register_tile.cuh
// kopt:include scale_epilogue.cuh

extern "C" __global__ void __launch_bounds__((BM / TM) * (BN / TN))
    {{ENTRY}}({{T}}* __restrict__ C, const {{T}}* __restrict__ A, const {{T}}* __restrict__ B,
                int batch, int M, int N, int K
#if KOPT_ALPHA
                , float alpha
#endif
#if KOPT_BETA
                , float beta
#endif
                ) {
  (void)batch;  // the grid's z extent
  long long const b = blockIdx.z;
#if KOPT_BETA
  smem_register_tiled::gemm_tile(C + b * M * N, A + b * M * K, B + b * K * N, M, N, K,
                               ScaleAddBeta<{{T}}>{alpha, beta, C + b * M * N, N});
#elif KOPT_ALPHA
  smem_register_tiled::gemm_tile(C + b * M * N, A + b * M * K, B + b * K * N, M, N, K, ScaleBy{alpha});
#else
  smem_register_tiled::gemm_tile(C + b * M * N, A + b * M * K, B + b * K * N, M, N, K);
#endif
}
