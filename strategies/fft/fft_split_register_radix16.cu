// Strategy fft_split_register_radix16 (family fft_split, FP32 and BF16 storage, launcher mode).
// Batched forward complex DFT, unnormalised, split layout: with x[b][j] = in_re[b N + j] + i in_im[b N + j],
//   X[b][k] = sum_j x[b][j] * exp(-2 pi i j k / N),
//   out_re[b N + k] = Re X[b][k],  out_im[b N + k] = Im X[b][k],
// B transforms of N points; real and imaginary parts in separate arrays, each transform contiguous in both.
//
// Algorithm (power-of-two N from RADIX to 8192): fft_register_radix16's (register_core.cuh), with loads
// and stores for the split layout. Each transform is owned by T = N / RADIX threads of one block; thread t
// holds the RADIX points t, t + T, t + 2T, ... in registers; every Stockham pass is twiddles and an
// in-register radix-16 (or 8, 4, 2 for the first pass) butterfly, and passes exchange data through one
// padded, bank-conflict-free shared-memory transpose; the last pass writes straight from registers. Global
// memory is read and written exactly once: for point t + e T a thread loads in_re[...] and in_im[...]
// (consecutive threads on consecutive points: each warp access is 128 contiguous bytes of FP32, 64 of BF16,
// whole sectors), 2 RADIX independent loads in flight per thread, no alignment requirement. A block owns
// BLOCK_THREADS / T consecutive transforms (at least 1). Twiddles exp(-2 pi i m / L) have exact integer
// m < L, L a power of two, and come from sincospif: TWIDDLE_MODE 0 = one sincospif per twiddle; 1 =
// sincospif for W^k, W^2k, W^4k, W^8k and the others as products of those.
// Any other N (not a power of two, N < RADIX, N > 8192, or a block that would not fit the device's shared
// memory) runs the stockham_split_shared strategy's kernel (stockham_split.cuh), so every N is correct.
//
// Knobs: RADIX = points per thread (8 or 16: radix of the main passes); BLOCK_THREADS = threads per
// block to aim for (transforms per block = BLOCK_THREADS / T, at least 1); TWIDDLE_MODE (above);
// MIN_THREADS_SM = resident threads per SM asked of the register allocator (__launch_bounds__ minimum
// blocks = MIN_THREADS_SM / block threads; 0 = no request).
// kopt:knob RADIX = [8, 16]
// kopt:knob BLOCK_THREADS = [64, 128, 256, 512]
// kopt:knob TWIDDLE_MODE = [0, 1] resources=none
// kopt:knob MIN_THREADS_SM = [0, 768, 1024] resources=none

#include <cuda_runtime.h>

#ifndef RADIX
#define RADIX 16
#endif
#ifndef BLOCK_THREADS
#define BLOCK_THREADS 256
#endif
#ifndef TWIDDLE_MODE
#define TWIDDLE_MODE 1
#endif
#ifndef MIN_THREADS_SM
#define MIN_THREADS_SM 1024
#endif

// The Stockham fallback for the sizes the register kernel does not take, with stockham_shared's
// measured-good configuration; only the layout-free parts of stockham_core.cuh, then the split kernels.
#define THREADS 256
#define POINTS 2048
#define MAX_RADIX 8
#define TWIDDLE 2
#define STOCKHAM_SPLIT_LAYOUT 1
// kopt:include direction.cuh
// kopt:include stockham_core.cuh
// kopt:include stockham_split.cuh
// kopt:include register_core.cuh

// Register-resident FFT of N = 2^LogN points, split layout; block b owns transforms b G .. b G + G - 1
// (G = kGroups).
template <int LogN>
// clang-format off
__global__ void __launch_bounds__(fft_register::Shape<LogN>::kThreads, fft_register::Shape<LogN>::kMinBlocks)
    fft_split_register_kernel({{T}}* __restrict__ out_re, {{T}}* __restrict__ out_im,
                              const {{T}}* __restrict__ in_re, const {{T}}* __restrict__ in_im, int B) {
  // clang-format on
  using namespace fft_register;
  using Sh = Shape<LogN>;
  extern __shared__ float2 fft_register_slots[];
  int const tid = static_cast<int>(threadIdx.x);
  int const group = tid / Sh::kT;
  int const t = tid - group * Sh::kT;
  long long const transform = static_cast<long long>(blockIdx.x) * Sh::kGroups + group;
  bool const active = transform < B;           // the last block may hold fewer transforms; all threads sync
  long long const first = transform * Sh::kN;  // index of the transform's point 0 in both arrays
  float2 x[RADIX];
#pragma unroll
  for (int e = 0; e < RADIX; ++e) {
    long long const index = first + t + e * Sh::kT;
    x[e] = active ? make_float2(kopt_strategy::to_float(in_re[index]),
                                fft_direction::in_im(kopt_strategy::to_float(in_im[index])))
                  : make_float2(0.0f, 0.0f);
  }
  run_passes<LogN, 0>(x, t, fft_register_slots + group * Sh::kStride);
  if (active) {
#pragma unroll
    for (int e = 0; e < RADIX; ++e) {
      long long const index = first + t + e * Sh::kT;
      out_re[index] = kopt_strategy::from_float<{{T}}>(fft_direction::out_re(x[e].x, Sh::kN));
      out_im[index] = kopt_strategy::from_float<{{T}}>(fft_direction::out_im(x[e].y, Sh::kN));
    }
  }
}

namespace fft_split_register {

using fft_register::kLogRadix;
using fft_register::kMaxLogN;
using fft_register::Shape;

// Launches the register kernel for N = 2^LogN; false (nothing launched) when its block does not fit the
// device's shared memory. Static (internal linkage), so that `configured` belongs to this candidate's
// library and not to every library of the process (stockham_split.cuh, stockham_split::launch, says why).
template <int LogN>
static bool launch_log({{T}}* out_re, {{T}}* out_im, const {{T}}* in_re, const {{T}}* in_im, int B) {
  using Sh = Shape<LogN>;
  if (Sh::kSharedBytes > stockham_shared::max_shared_bytes()) return false;
  static bool configured = false;  // dynamic shared memory above 48 KiB opted in
  if (Sh::kSharedBytes > 48LL * 1024 && !configured) {
    if (cudaFuncSetAttribute(fft_split_register_kernel<LogN>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(Sh::kSharedBytes)) != cudaSuccess) {
      return false;
    }
    configured = true;
  }
  unsigned const blocks = static_cast<unsigned>((static_cast<long long>(B) + Sh::kGroups - 1) / Sh::kGroups);
  fft_split_register_kernel<LogN>
      <<<blocks, Sh::kThreads, static_cast<size_t>(Sh::kSharedBytes), kopt_strategy::launch_stream()>>>(out_re, out_im, in_re, in_im, B);
  return true;
}

// Dispatch on log2 N over kLogRadix .. kMaxLogN.
template <int LogN>
static bool launch_any(int log_n, {{T}}* out_re, {{T}}* out_im, const {{T}}* in_re, const {{T}}* in_im,
                       int B) {
  if (log_n == LogN) return launch_log<LogN>(out_re, out_im, in_re, in_im, B);
  if constexpr (LogN < kMaxLogN) {
    return launch_any<LogN + 1>(log_n, out_re, out_im, in_re, in_im, B);
  } else {
    return false;
  }
}

}  // namespace fft_split_register

extern "C" void {{ENTRY}}({{T}}* out_re, {{T}}* out_im, const {{T}}* in_re, const {{T}}* in_im, int N,
                          int B) {
  using namespace fft_split_register;
  if (N <= 0 || B <= 0) return;
  int log_n = 0;
  while ((1 << log_n) < N && log_n < 30) ++log_n;
  if ((1 << log_n) == N && log_n >= kLogRadix && log_n <= kMaxLogN) {
    if (launch_any<kLogRadix>(log_n, out_re, out_im, in_re, in_im, B)) return;
  }
  stockham_split::launch(out_re, out_im, in_re, in_im, N, B);
}
