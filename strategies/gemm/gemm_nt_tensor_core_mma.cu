// Strategy gemm_nt_tensor_core_mma (family gemm_nt, BF16 only, kernel mode, sm_80+).
// C = A * B^T with row-major A (M x K), B (N x K) and C (M x N) in BF16: `a @ b.T`, and nn.Linear without a
// bias; FP32 accumulation on the tensor cores, one rounding to BF16 at the end. tensor_core_mma's tile
// (tensor_core_mma_tile.cuh: mma.sync m16n8k16, a STAGES-deep cp.async ring, rows padded by 8 elements)
// with B read as its transpose: a slice of B is BN rows of BK elements, copied in 16-byte chunks like A's,
// and its fragments are loaded with ldmatrix without .trans (B's rows are the mma's column-major B).
// Edges and unaligned rows (K not a multiple of 8) are zero-filled or copied element by element.
// Knobs: BM, BN (block tile), BK (K slice), STAGES (pipeline depth), WARPS (4 or 8 warps per block).
//
// kopt:knob BM = [64, 128, 256]
// kopt:knob BN = [64, 128, 256]
// kopt:knob BK = [32, 64]
// kopt:knob STAGES = [2, 3, 4]
// kopt:knob WARPS = [4, 8]
// A warp's accumulators are at most 128 floats per thread: (BM / 2) * (BN / (WARPS / 2)) <= 4096.
// kopt:constraint (BM / 2) * (BN / (WARPS / 2)) <= 4096
// A warp's columns are a multiple of 16 (one ldmatrix.x4 covers 16 columns):
// kopt:constraint (BN / (WARPS / 2)) % 16 == 0
// Dynamic shared memory at most 227 KiB (H100/H200; kopt raises the limit above 48 KiB):
// kopt:constraint STAGES * (BM + BN) * (BK + 8) * 2 <= 232448
// kopt:launch grid=(ceil_div({{ARG4}}, BN), ceil_div({{ARG3}}, BM)) block=(WARPS * 32) shared=(STAGES * (BM + BN) * (BK + 8) * 2) kernel={{ENTRY}}
#define KOPT_GEMM_B_TRANSPOSED 1
// kopt:include tensor_core_mma_tile.cuh

extern "C" __global__ void __launch_bounds__(WARPS * 32)
    {{ENTRY}}({{T}}* __restrict__ C, const {{T}}* __restrict__ A, const {{T}}* __restrict__ B, int M,
                int N, int K) {
  tensor_core_mma::gemm_tile(C, A, B, M, N, K);
}
