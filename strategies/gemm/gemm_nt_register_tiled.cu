// Strategy gemm_nt_register_tiled (family gemm_nt, FP32 and BF16 storage, kernel mode).
// C = A * B^T with row-major A (M x K), B (N x K) and C (M x N): `a @ b.T`, and nn.Linear without a bias
// (B is the weight in PyTorch's layout); FP32 accumulation, one rounding to T at the end.
// smem_register_tiled's tile (smem_register_tile.cuh) with B read as its transpose: slices of B are loaded
// along K with 4-element vectors, like slices of A, and stored transposed in shared memory rows padded by
// 4 floats, so the register-tiled multiply is the GEMM's. Any M, N, K (including 0) and any alignment work.
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
// Static shared memory (two buffers, both slices' rows padded) at most 48 KiB:
// kopt:constraint 8 * BK * (BM + 4 + BN + 4) <= 49152
// kopt:launch grid=(ceil_div({{ARG4}}, BN), ceil_div({{ARG3}}, BM)) block=((BM / TM) * (BN / TN)) kernel={{ENTRY}}
#define KOPT_GEMM_B_TRANSPOSED 1
// kopt:include smem_register_tile.cuh

extern "C" __global__ void __launch_bounds__((BM / TM) * (BN / TN))
    {{ENTRY}}({{T}}* __restrict__ C, const {{T}}* __restrict__ A, const {{T}}* __restrict__ B, int M,
                int N, int K) {
  smem_register_tiled::gemm_tile(C, A, B, M, N, K);
}
