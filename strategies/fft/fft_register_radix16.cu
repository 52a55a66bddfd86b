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
// kopt:include stockham_core.cuh

namespace fft_register {

static_assert(RADIX == 8 || RADIX == 16, "RADIX is 8 or 16");
static_assert(BLOCK_THREADS == 64 || BLOCK_THREADS == 128 || BLOCK_THREADS == 256 || BLOCK_THREADS == 512,
              "BLOCK_THREADS");
static_assert(TWIDDLE_MODE == 0 || TWIDDLE_MODE == 1, "TWIDDLE_MODE is 0 or 1");
static_assert(MIN_THREADS_SM >= 0 && MIN_THREADS_SM <= 2048, "MIN_THREADS_SM");

constexpr int kLogRadix = RADIX == 16 ? 4 : 3;
constexpr int kMaxLogN = 13;  // N <= 8192: T = N / RADIX <= 1024 threads

// Padded shared-memory index: one spare complex every 16.
__host__ __device__ constexpr int pad(int w) { return w + (w >> 4); }

// Geometry of the kernel for N = 2^LogN.
template <int LogN>
struct Shape {
  static constexpr int kN = 1 << LogN;
  static constexpr int kT = kN / RADIX;  // threads per transform
  static constexpr int kGroups = kT >= BLOCK_THREADS ? 1 : BLOCK_THREADS / kT;  // transforms per block
  static constexpr int kThreads = kGroups * kT;
  static constexpr int kMinBlocks = MIN_THREADS_SM / kThreads > 0 ? MIN_THREADS_SM / kThreads : 1;
  static constexpr int kFirstRadix = LogN % kLogRadix == 0 ? RADIX : 1 << (LogN % kLogRadix);
  static constexpr int kPasses = LogN / kLogRadix + (LogN % kLogRadix == 0 ? 0 : 1);
  static constexpr int kStride = pad(kN - 1) + 1;  // padded complex slots per transform
  // One pass (N == RADIX) exchanges nothing.
  static constexpr long long kSharedBytes = kPasses > 1 ? static_cast<long long>(kGroups) * kStride * 8 : 0;
  static_assert(kT >= 1 && kThreads <= 1024, "block size");
  // Radix of pass s and the product p of the radices before it.
  __host__ __device__ static constexpr int radix(int s) { return s == 0 ? kFirstRadix : RADIX; }
  __host__ __device__ static constexpr int product_before(int s) {
    int p = 1;
    for (int i = 0; i < s; ++i) p *= radix(i);
    return p;
  }
};

__host__ __device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__host__ __device__ __forceinline__ float2 cadd(float2 a, float2 b) {
  return make_float2(a.x + b.x, a.y + b.y);
}
__host__ __device__ __forceinline__ float2 csub(float2 a, float2 b) {
  return make_float2(a.x - b.x, a.y - b.y);
}
// a * (-i)
__host__ __device__ __forceinline__ float2 mul_minus_i(float2 a) { return make_float2(a.y, -a.x); }

// exp(-2 pi i m / L) for 0 <= m < L, L a power of two: m * (-2 / L) is exact, sincospif is accurate.
template <int L>
__host__ __device__ __forceinline__ float2 root(int m) {
  float s = 0.0f;
  float c = 0.0f;
  sincospif(static_cast<float>(m) * (-2.0f / static_cast<float>(L)), &s, &c);
  return make_float2(c, s);
}

// In-register forward DFT of R points, natural order in and out: radix 2, 4 and 8 are stockham_shared's;
// radix 16 is two radix-8 halves and one twiddle stage.
template <int R>
__device__ __forceinline__ void dft(float2 (&x)[R]) {
  if constexpr (R != 16) {
    static_assert(R == 2 || R == 4 || R == 8, "radix 2, 4, 8 or 16");
    stockham_shared::dft<R>(x);
  } else {
    float2 e[8] = {x[0], x[2], x[4], x[6], x[8], x[10], x[12], x[14]};
    float2 o[8] = {x[1], x[3], x[5], x[7], x[9], x[11], x[13], x[15]};
    stockham_shared::dft<8>(e);
    stockham_shared::dft<8>(o);
    // o[q] *= exp(-2 pi i q / 16) = cos(pi q / 8) - i sin(pi q / 8).
    float constexpr c1 = 0.9238795325112867f;  // cos(pi / 8)
    float constexpr s1 = 0.3826834323650898f;  // sin(pi / 8)
    float constexpr h = 0.7071067811865476f;
    o[1] = cmul(o[1], make_float2(c1, -s1));
    o[2] = make_float2(h * (o[2].x + o[2].y), h * (o[2].y - o[2].x));
    o[3] = cmul(o[3], make_float2(s1, -c1));
    o[4] = mul_minus_i(o[4]);
    o[5] = cmul(o[5], make_float2(-s1, -c1));
    o[6] = make_float2(h * (o[6].y - o[6].x), -h * (o[6].x + o[6].y));
    o[7] = cmul(o[7], make_float2(-c1, -s1));
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      x[q] = cadd(e[q], o[q]);
      x[q + 8] = csub(e[q], o[q]);
    }
  }
}

// Multiplies y[j] (1 <= j < R) by W_L^{j k}, 0 <= k < L / R, L = p R a power of two.
template <int R, int L>
__host__ __device__ __forceinline__ void twiddle(float2 (&y)[R], int k) {
#if TWIDDLE_MODE == 0
#pragma unroll
  for (int j = 1; j < R; ++j) y[j] = cmul(y[j], root<L>(j * k));
#else
  // w[j] = W_L^{j k}: exact sincospif for j a power of two, else w[highest bit of j] * w[rest].
  float2 w[R];
#pragma unroll
  for (int j = 1; j < R; ++j) {
    int high = 1;
    while (high * 2 <= j) high *= 2;
    w[j] = high == j ? root<L>(j * k) : cmul(w[high], w[j - high]);
    y[j] = cmul(y[j], w[j]);
  }
#endif
}

// The radix-Rad butterflies of one pass for thread t (p = P): butterfly u is Stockham butterfly
// i = t + u T with inputs x[u + j R / Rad]; its outputs replace them, output q in x[u + q R / Rad].
template <int R, int Rad, int P>
__host__ __device__ __forceinline__ void butterflies(float2 (&x)[R], int t, int T) {
  constexpr int kSpan = R / Rad;
#pragma unroll
  for (int u = 0; u < kSpan; ++u) {
    float2 y[Rad];
#pragma unroll
    for (int j = 0; j < Rad; ++j) y[j] = x[u + j * kSpan];
    if constexpr (P > 1) twiddle<Rad, P * Rad>(y, (t + u * T) & (P - 1));
    dft<Rad>(y);
#pragma unroll
    for (int q = 0; q < Rad; ++q) x[u + q * kSpan] = y[q];
  }
}

// Where x[u + q R / Rad] of thread t goes in the pass output (unpadded point index).
template <int R, int Rad, int P>
__host__ __device__ __forceinline__ int output_index(int t, int T, int u, int q) {
  int const i = t + u * T;
  int const k = i & (P - 1);
  return (i - k) * Rad + k + q * P;
}

// Writes a pass's outputs to the transform's shared slots, waits, and reads the thread's points
// t + e T of the next pass. `first`: no earlier exchange, so no wait before writing.
template <int R, int Rad, int P>
__device__ __forceinline__ void exchange(float2 (&x)[R], int t, int T, float2* slots, bool first) {
  constexpr int kSpan = R / Rad;
  if (!first) __syncthreads();  // every thread has read the previous exchange
#pragma unroll
  for (int u = 0; u < kSpan; ++u) {
#pragma unroll
    for (int q = 0; q < Rad; ++q) slots[pad(output_index<R, Rad, P>(t, T, u, q))] = x[u + q * kSpan];
  }
  __syncthreads();
#pragma unroll
  for (int e = 0; e < R; ++e) x[e] = slots[pad(t + e * T)];
}

// Passes S .. kPasses - 1 of the transform (x holds the pass input in the t + e T pattern; on return
// x holds the output, also in that pattern).
template <int LogN, int S>
__device__ __forceinline__ void run_passes(float2 (&x)[RADIX], int t, float2* slots) {
  using Sh = Shape<LogN>;
  constexpr int kRad = Sh::radix(S);
  constexpr int kP = Sh::product_before(S);
  butterflies<RADIX, kRad, kP>(x, t, Sh::kT);
  if constexpr (S + 1 < Sh::kPasses) {
    exchange<RADIX, kRad, kP>(x, t, Sh::kT, slots, S == 0);
    run_passes<LogN, S + 1>(x, t, slots);
  }
}

// One complex point `index` (in complex units) of `p`, as float2; `pairs`: 2 * sizeof(T) aligned.
__device__ __forceinline__ float2 load_point(float const* p, long long index, bool pairs) {
  if (pairs) return reinterpret_cast<float2 const*>(p)[index];
  return make_float2(p[2 * index], p[2 * index + 1]);
}
__device__ __forceinline__ float2 load_point(__nv_bfloat16 const* p, long long index, bool pairs) {
  if (pairs) return __bfloat1622float2(reinterpret_cast<__nv_bfloat162 const*>(p)[index]);
  return make_float2(__bfloat162float(p[2 * index]), __bfloat162float(p[2 * index + 1]));
}
__device__ __forceinline__ void store_point(float* p, long long index, float2 v, bool pairs) {
  if (pairs) {
    reinterpret_cast<float2*>(p)[index] = v;
  } else {
    p[2 * index] = v.x;
    p[2 * index + 1] = v.y;
  }
}
__device__ __forceinline__ void store_point(__nv_bfloat16* p, long long index, float2 v, bool pairs) {
  if (pairs) {
    reinterpret_cast<__nv_bfloat162*>(p)[index] = __float22bfloat162_rn(v);
  } else {
    p[2 * index] = __float2bfloat16_rn(v.x);
    p[2 * index + 1] = __float2bfloat16_rn(v.y);
  }
}

}  // namespace fft_register

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
    x[e] = active ? load_point(in, first + t + e * Sh::kT, pairs) : make_float2(0.0f, 0.0f);
  }
  run_passes<LogN, 0>(x, t, fft_register_slots + group * Sh::kStride);
  if (active) {
#pragma unroll
    for (int e = 0; e < RADIX; ++e) store_point(out, first + t + e * Sh::kT, x[e], pairs);
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
      <<<blocks, Sh::kThreads, static_cast<size_t>(Sh::kSharedBytes)>>>(out, in, B, pairs);
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
