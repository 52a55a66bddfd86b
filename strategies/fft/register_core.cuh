// Shared body of the register-resident FFT strategies (spliced by `// kopt:include register_core.cuh`):
// the geometry of the register kernel for N = 2^LogN (Shape), the in-register radix-2/4/8/16 butterflies
// with their twiddles, the shared-memory exchange between passes (run_passes), and one complex point's
// load and store for the interleaved layout. fft_register_radix16.cu describes the algorithm; the
// kernels and their launchers (interleaved: fft_register_radix16.cu, split re/im arrays:
// fft_split_register_radix16.cu) live in the templates. The including template defines RADIX,
// BLOCK_THREADS, TWIDDLE_MODE and MIN_THREADS_SM first and includes stockham_core.cuh before this file.
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
