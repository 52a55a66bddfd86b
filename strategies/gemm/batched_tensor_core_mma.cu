// Strategy batched_tensor_core_mma (family batched_gemm, BF16 only, kernel mode, sm_80+).
// Batched: C[b] = A[b] * B[b] for b < batch, matrices packed contiguously (A[b] at b*M*K, B[b] at
// b*K*N, C[b] at b*M*N); blockIdx.z is the batch index, the rest is the kernel of tensor_core_mma.
// C = A * B, row-major A (M x K), B (K x N), C (M x N) in BF16; FP32 accumulation on the tensor cores,
// one rounding to BF16 at the end. Each block computes a BM x BN tile of C with WARPS warps arranged
// 2 x (WARPS / 2); each warp owns a (BM / 2) x (BN / (WARPS / 2)) sub-tile and issues
// mma.sync.m16n8k16 (BF16 in, FP32 accumulators in registers) on fragments loaded from shared memory
// with ldmatrix (ldmatrix.trans for the row-major B). K is walked in slices of BK through a STAGES-deep
// ring of shared-memory buffers filled with 16-byte cp.async copies, so STAGES - 1 slices are in flight
// while one is multiplied (one barrier per slice). Rows are padded by 8 elements, which makes the
// ldmatrix reads conflict-free. Edges: a 16-byte chunk outside the matrix is zero-filled by cp.async
// (src-size 0); when a row of A or B is not 16-byte aligned (K or N not a multiple of 8, or an
// unaligned pointer) the slices are copied element by element with zero fill instead, so any M, N, K
// (including 0) works. The epilogue stores pairs of BF16 when aligned, single elements otherwise.
// Knobs: BM, BN (block tile), BK (K slice), STAGES (pipeline depth), WARPS (4 or 8 warps per block).
//
// kopt:knob BM = [64, 128, 256]
// kopt:knob BN = [64, 128, 256]
// kopt:knob BK = [32, 64]
// kopt:knob STAGES = [2, 3, 4]
// kopt:knob WARPS = [4, 8]
// A warp's accumulators are at most 128 floats per thread: (BM / 2) * (BN / (WARPS / 2)) <= 4096.
// kopt:constraint (BM / 2) * (BN / (WARPS / 2)) <= 4096
// A warp's columns are a multiple of 16 (one ldmatrix.x4.trans covers 16 columns):
// kopt:constraint (BN / (WARPS / 2)) % 16 == 0
// Dynamic shared memory at most 227 KiB (H100/H200; kopt raises the limit above 48 KiB):
// kopt:constraint STAGES * (BM * (BK + 8) + BK * (BN + 8)) * 2 <= 232448
// kopt:launch grid=(ceil_div({{ARG5}}, BN), ceil_div({{ARG4}}, BM), {{ARG3}}) block=(WARPS * 32) shared=(STAGES * (BM * (BK + 8) + BK * (BN + 8)) * 2) kernel={{ENTRY}}
// kopt:include tensor_core_mma_tile.cuh
// kopt:include scale_epilogue.cuh

extern "C" __global__ void __launch_bounds__(WARPS * 32)
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
  tensor_core_mma::gemm_tile(C + b * M * N, A + b * M * K, B + b * K * N, M, N, K,
                           ScaleAddBeta<{{T}}>{alpha, beta, C + b * M * N, N});
#elif KOPT_ALPHA
  tensor_core_mma::gemm_tile(C + b * M * N, A + b * M * K, B + b * K * N, M, N, K, ScaleBy{alpha});
#else
  tensor_core_mma::gemm_tile(C + b * M * N, A + b * M * K, B + b * K * N, M, N, K);
#endif
}
