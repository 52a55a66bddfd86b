// Strategy stockham_shared (family fft, FP32 and BF16 storage, launcher mode).
// Batched forward complex DFT, unnormalised: out[b][k] = sum_j in[b][j] * exp(-2 pi i j k / N), B
// transforms of N interleaved (re, im) points, contiguous.
//
// Algorithm. N is factored on the host into radices (8 or 4 first, then 2, 3, 5, 7, then any remaining
// prime). One block handles `tpb` consecutive transforms (a power of two chosen at run time, about
// POINTS / N, at least 1): it reads their 2 * N * tpb values once with coalesced 128-bit loads into shared
// memory (FP32 complex; BF16 converted to float), runs one Stockham autosort pass per radix between two
// shared buffers, and writes the result once with 128-bit stores (one rounding to T). The threads of the
// block are split into tpb equal groups, one per transform. A radix-r pass with p = product of the
// radices before it computes, for every i < N / r with k = i mod p:
//   y[q] = sum_j x[i + j N / r] * W_{p r}^{j k} * W_r^{j q},  stored at (i - k) r + k + q p.
// Radices 2, 4, 8 use the usual butterflies, 3, 5, 7 a direct small DFT with constant roots, any other
// prime a direct O(r) sum per output (each twiddle index reduced exactly mod p r). Twiddles
// exp(-2 pi i m / L) have an exact integer index m < L and come from sincospif, from a per-N table
// (computed once per N into global memory by a setup kernel and kept), or as powers of one sincospif.
// Shared memory is padded by one complex every 16 (index + index / 16), which makes the strided writes
// of the first passes bank-conflict free.
// Fallback: when even one transform does not fit the device's shared memory (N above ~13 000 on an H200,
// ~10 000 on an A100: two buffers of 8 N bytes), a direct DFT in global memory (one thread per output,
// double accumulation, O(N^2)) keeps the result correct; the suite's sizes never take it.
// Alignment: 128-bit accesses only when the block's first element is 16-byte aligned; otherwise, and for
// the tail, element-wise accesses. Any N >= 1 and B >= 1 work (N <= 0 or B <= 0: nothing to do).
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

// kopt:include direction.cuh
// kopt:include stockham_core.cuh

extern "C" void {{ENTRY}}({{T}}* out, const {{T}}* in, int N, int B) {
  stockham_shared::launch(out, in, N, B);
}
