// Strategy linear_tensor_core_mma (family linear, BF16 only, kernel mode, sm_80+).
// out = op(x * weight^T + bias), nn.Linear with an element-wise epilogue fused: row-major x (M x K),
// weight (N x K, PyTorch's layout), bias (N), out (M x N) in BF16; FP32 accumulation on the tensor cores,
// the bias added and `op` applied in FP32 to each element before its one rounding to BF16.
// tensor_core_mma's tile (tensor_core_mma_tile.cuh: mma.sync m16n8k16, a STAGES-deep cp.async ring,
// rows padded by 8 elements) with B read as its transpose: a weight slice is BN rows of BK elements,
// copied in 16-byte chunks like x's, and its fragments are loaded with ldmatrix without .trans (the
// weight's rows are the mma's column-major B). The epilogue runs in the store: no second pass over out.
// Edges and unaligned rows (K not a multiple of 8) are zero-filled or copied element by element.
// KOPT_LINEAR_CHANNEL (a manifest `defines`, family linear_channel): the entry also takes a second vector of
// N values, last (a per-feature parameter the chain reads, such as KernelBench's `x + self.add_value`), and
// `op` reads its column's value as p.
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
// kopt:launch grid=(ceil_div({{ARG5}}, BN), ceil_div({{ARG4}}, BM)) block=(WARPS * 32) shared=(STAGES * (BM + BN) * (BK + 8) * 2) kernel={{ENTRY}}
#define KOPT_GEMM_B_TRANSPOSED 1
// kopt:include tensor_core_mma_tile.cuh

extern "C" __global__ void __launch_bounds__(WARPS * 32)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ x, const {{T}}* __restrict__ weight,
                const {{T}}* __restrict__ bias, int M, int N, int K
#if KOPT_LINEAR_CHANNEL
                , const {{T}}* __restrict__ channel
#endif
                ) {
  tensor_core_mma::gemm_tile(out, x, weight, M, N, K, [=](float acc, int /*row*/, int col) {
    float const v = acc + kopt_strategy::to_float(bias[col]);
#if KOPT_LINEAR_CHANNEL
    float const p = kopt_strategy::to_float(channel[col]);
#endif
    return {{op}};
  });
}
