// Strategy fft_register_radix16 (family fft, FP32 and BF16 storage, launcher mode).
// Batched forward complex DFT, unnormalised: out[b][k] = sum_j in[b][j] * exp(-2 pi i j k / N), B
// transforms of N interleaved (re, im) points, contiguous.
//
// Algorithm (power-of-two N from RADIX to 8192). Each transform is owned by T = N / RADIX threads of one
// block; thread t holds the RADIX points t, t + T, t + 2T, ... in registers (x[e] = point t + e T). A
// Stockham pass of radix r <= RADIX with p = product of the earlier radices has N / r butterflies; thread
// t runs butterflies i = t + u T (u < RADIX / r), whose inputs i + j N / r = t + T (u + j RADIX / r) are
// exactly its own x[u + j RADIX / r]: every pass reads the same register pattern, so a pass is twiddles
// (W_{pr}^{j k}, k = i mod p) and an in-register radix-r DFT (2, 4, 8 or 16 point butterflies), and
// between passes each thread writes its outputs to (i - k) r + k + q p in shared memory and reads its
// next points t + e T back: one shared-memory exchange (a transpose) per pass, padded by one complex
// every 16, which makes both the strided writes and the reads bank-conflict free. The first pass has
// radix 2^(log2 N mod log2 RADIX) (when not 1) and needs no twiddles; the others have radix RADIX. In the
// last pass k = i, so output q of butterfly u is point t + T (u + q RADIX / r): it goes straight from
// registers to global memory. N = 256 with RADIX 16 is two register passes with one exchange; N = 1024
// is 4 x 16 x 16; N = 8192 is 2 x 16 x 16 x 16 with one 512-thread block per transform.
// Global memory is read and written exactly once: one 8-byte (FP32) or 4-byte (BF16) complex per thread
// and access, consecutive threads on consecutive points (full 128-byte lines per warp), RADIX independent
// loads in flight per thread. A block owns BLOCK_THREADS / T consecutive transforms (at least 1).
// Twiddles exp(-2 pi i m / L) have exact integer m < L, L a power of two (m / L is exact) and come from
// sincospif: TWIDDLE_MODE 0 = one sincospif per twiddle; 1 = sincospif for W^k, W^2k, W^4k, W^8k and
// the others as products of those (at most 3 roundings; a quarter of the sincospif calls).
// Any other N (not a power of two, N < RADIX, N > 8192, or a block that would not fit the device's
// shared memory) runs the stockham_shared strategy's kernel (stockham_core.cuh), so every N is correct.
// Alignment: paired (8- or 4-byte) complex accesses only when both pointers allow them, else element-wise.
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

#include <cstdint>

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
// measured-good configuration.
#define THREADS 256
#define POINTS 2048
#define MAX_RADIX 8
#define TWIDDLE 2
// kopt:include direction.cuh
// kopt:include stockham_core.cuh

// kopt:include register_core.cuh

// Register-resident FFT of N = 2^LogN points; block b owns transforms b G .. b G + G - 1 (G = kGroups).
template <int LogN>
__global__ void __launch_bounds__(fft_register::Shape<LogN>::kThreads, fft_register::Shape<LogN>::kMinBlocks)
    fft_register_kernel({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int B, bool pairs) {
  using namespace fft_register;
  using Sh = Shape<LogN>;
  extern __shared__ float2 fft_register_slots[];
  int const tid = static_cast<int>(threadIdx.x);
  int const group = tid / Sh::kT;
  int const t = tid - group * Sh::kT;
  long long const transform = static_cast<long long>(blockIdx.x) * Sh::kGroups + group;
  bool const active = transform < B;  // the last block may hold fewer transforms; all threads sync
  long long const first = transform * Sh::kN;  // complex index of the transform's point 0
  float2 x[RADIX];
#pragma unroll
  for (int e = 0; e < RADIX; ++e) {
    x[e] = active ? fft_direction::in_point(load_point(in, first + t + e * Sh::kT, pairs)) : make_float2(0.0f, 0.0f);
  }
  run_passes<LogN, 0>(x, t, fft_register_slots + group * Sh::kStride);
  if (active) {
#pragma unroll
    for (int e = 0; e < RADIX; ++e) store_point(out, first + t + e * Sh::kT, fft_direction::out_point(x[e], Sh::kN), pairs);
  }
}

namespace fft_register {

// Launches the register kernel for N = 2^LogN; false (nothing launched) when its block does not fit the
// device's shared memory.
template <int LogN>
bool launch_log({{T}}* out, const {{T}}* in, int B, bool pairs) {
  using Sh = Shape<LogN>;
  if (Sh::kSharedBytes > stockham_shared::max_shared_bytes()) return false;
  static bool configured = false;  // dynamic shared memory above 48 KiB opted in
  if (Sh::kSharedBytes > 48LL * 1024 && !configured) {
    if (cudaFuncSetAttribute(fft_register_kernel<LogN>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(Sh::kSharedBytes)) != cudaSuccess) {
      return false;
    }
    configured = true;
  }
  unsigned const blocks = static_cast<unsigned>((static_cast<long long>(B) + Sh::kGroups - 1) / Sh::kGroups);
  fft_register_kernel<LogN>
      <<<blocks, Sh::kThreads, static_cast<size_t>(Sh::kSharedBytes), kopt_strategy::launch_stream()>>>(out, in, B, pairs);
  return true;
}

// Dispatch on log2 N over kLogRadix .. kMaxLogN.
template <int LogN>
bool launch_any(int log_n, {{T}}* out, const {{T}}* in, int B, bool pairs) {
  if (log_n == LogN) return launch_log<LogN>(out, in, B, pairs);
  if constexpr (LogN < kMaxLogN) {
    return launch_any<LogN + 1>(log_n, out, in, B, pairs);
  } else {
    return false;
  }
}

}  // namespace fft_register

extern "C" void {{ENTRY}}({{T}}* out, const {{T}}* in, int N, int B) {
  using namespace fft_register;
  if (N <= 0 || B <= 0) return;
  int log_n = 0;
  while ((1 << log_n) < N && log_n < 30) ++log_n;
  if ((1 << log_n) == N && log_n >= kLogRadix && log_n <= kMaxLogN) {
    auto const alignment = static_cast<std::uintptr_t>(2 * sizeof({{T}}));
    bool const pairs = reinterpret_cast<std::uintptr_t>(in) % alignment == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % alignment == 0;
    if (launch_any<kLogRadix>(log_n, out, in, B, pairs)) return;
  }
  stockham_shared::launch(out, in, N, B);
}
