// Strategy linear_register_tiled (family linear, FP32 and BF16 storage, kernel mode).
// out = op(x * weight^T + bias), nn.Linear with an element-wise epilogue fused: row-major x (M x K),
// weight (N x K, PyTorch's layout), bias (N), out (M x N); FP32 accumulation, the bias added and `op`
// applied in FP32 to each element before its one rounding to T. smem_register_tiled's tile
// (smem_register_tile.cuh) with B read as its transpose: slices of the weight are loaded along K with
// 4-element vectors, like slices of x, and stored transposed in shared memory rows padded by 4 floats, so
// the register-tiled multiply is the GEMM's. The epilogue runs in the store: no second pass over out.
// Any M, N, K (including 0) and any alignment work.
// KOPT_LINEAR_CHANNEL (a manifest `defines`, family linear_channel): the entry also takes a second vector of
// N values, last (a per-feature parameter the chain reads, such as KernelBench's `x + self.add_value`), and
// `op` reads its column's value as p.
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
// kopt:launch grid=(ceil_div({{ARG5}}, BN), ceil_div({{ARG4}}, BM)) block=((BM / TM) * (BN / TN)) kernel={{ENTRY}}
#define KOPT_GEMM_B_TRANSPOSED 1
// kopt:include smem_register_tile.cuh

extern "C" __global__ void __launch_bounds__((BM / TM) * (BN / TN))
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ x, const {{T}}* __restrict__ weight,
                const {{T}}* __restrict__ bias, int M, int N, int K
#if KOPT_LINEAR_CHANNEL
                , const {{T}}* __restrict__ channel
#endif
                ) {
  smem_register_tiled::gemm_tile(out, x, weight, M, N, K, [=](float acc, int /*row*/, int col) {
    float const v = acc + kopt_strategy::to_float(bias[col]);
#if KOPT_LINEAR_CHANNEL
    float const p = kopt_strategy::to_float(channel[col]);
#endif
    return {{op}};
  });
}
