// Strategy stockham_split_shared (family fft_split, FP32 and BF16 storage, launcher mode).
// Batched forward complex DFT, unnormalised, split layout: with x[b][j] = in_re[b N + j] + i in_im[b N + j],
//   X[b][k] = sum_j x[b][j] * exp(-2 pi i j k / N),
//   out_re[b N + k] = Re X[b][k],  out_im[b N + k] = Im X[b][k],
// B transforms of N points; real and imaginary parts in separate arrays, each transform contiguous in both.
//
// Algorithm: stockham_shared's (stockham_core.cuh), with loads and stores for the split layout. N is
// factored on the host into radices (8 or 4 first, then 2, 3, 5, 7, then any remaining prime). One block
// handles `tpb` consecutive transforms (a power of two chosen at run time, about POINTS / N, at least 1).
// Each thread reads a 128-bit pack of real parts and the 128-bit pack of imaginary parts of the same
// points (4 FP32 or 8 BF16 points per pack, two pairs in flight per thread) and writes them to shared
// memory as FP32 (re, im) pairs. One Stockham autosort pass per radix runs between two shared buffers
// padded by one complex every 16 (the pair writes of the load and the pair reads of the store are then
// bank-conflict free). The result is written once with 128-bit stores to both output arrays (one rounding
// to T). Global memory is touched exactly twice per value. Twiddles exp(-2 pi i m / L) have an exact
// integer index m < L and come from sincospif, a per-N table or powers of one sincospif.
// Fallback: when one transform does not fit the device's shared memory (N above ~13 000 on an H200), a
// direct DFT in global memory (one thread per output, double accumulation, O(N^2)) keeps the result
// correct; the suite's sizes never take it.
// Alignment: 128-bit accesses only when the block's first point is 16-byte aligned in both arrays (always
// for N a multiple of 4 (FP32) or 8 (BF16) and aligned buffers); otherwise, and for the tail, point-wise
// accesses. Any N >= 1 and B >= 1 work (N <= 0 or B <= 0: nothing to do).
//
// Knobs: THREADS per block; POINTS the complex points a block aims to hold (transforms per block =
// largest power of two <= POINTS / N, at least 1, at most THREADS and B); MAX_RADIX 4 or 8 (largest
// power-of-two radix per pass: fewer passes vs more registers); TWIDDLE 0 = sincospif per twiddle,
// 1 = table lookup, 2 = one sincospif per butterfly and powers of it.
// kopt:knob THREADS = [128, 256, 512, 1024]
// kopt:knob POINTS = [1024, 2048, 4096, 8192]
// kopt:knob MAX_RADIX = [4, 8]
// kopt:knob TWIDDLE = [0, 1, 2] resources=none

#include <cuda_runtime.h>

#include <map>
#include <mutex>

#ifndef THREADS
#define THREADS 256
#endif
#ifndef POINTS
#define POINTS 2048
#endif
#ifndef MAX_RADIX
#define MAX_RADIX 8
#endif
#ifndef TWIDDLE
#define TWIDDLE 2
#endif

// Only the layout-free parts of stockham_core.cuh: the split kernels follow.
#define STOCKHAM_SPLIT_LAYOUT 1
// kopt:include direction.cuh
// kopt:include stockham_core.cuh
// kopt:include stockham_split.cuh

extern "C" void {{ENTRY}}({{T}}* out_re, {{T}}* out_im, const {{T}}* in_re, const {{T}}* in_im, int N,
                          int B) {
  stockham_split::launch(out_re, out_im, in_re, in_im, N, B);
}
