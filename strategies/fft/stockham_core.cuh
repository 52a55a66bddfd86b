// Shared body of the fft strategies' Stockham path (spliced by `// kopt:include stockham_core.cuh`):
// the shared-memory mixed-radix Stockham kernel, its direct-DFT fallback for N beyond shared memory, and
// the host launcher stockham_shared::launch(out, in, N, B). stockham_shared.cu describes the algorithm.
// The including template defines the macros THREADS, POINTS, MAX_RADIX and TWIDDLE first.
// A template that defines STOCKHAM_SPLIT_LAYOUT gets only the layout-free parts (plan, passes, twiddles,
// shared-memory limits): stockham_split.cuh then adds the split re/im kernels and stockham_split::launch.
#include <cuda_runtime.h>

#include <map>
#include <mutex>

namespace stockham_shared {

static_assert(THREADS == 128 || THREADS == 256 || THREADS == 512 || THREADS == 1024, "THREADS");
static_assert(MAX_RADIX == 4 || MAX_RADIX == 8, "MAX_RADIX is 4 or 8");
static_assert(TWIDDLE >= 0 && TWIDDLE <= 2, "TWIDDLE is 0, 1 or 2");

constexpr int kMaxStages = 32;  // N < 2^31 has at most 31 prime factors

// The radices of N in pass order.
struct Plan {
  int n;
  int stages;
  int radix[kMaxStages];
};

inline Plan make_plan(int n, int max_radix) {
  Plan plan{};
  plan.n = n;
  int m = n;
  auto push = [&plan](int r) { plan.radix[plan.stages++] = r; };
  if (max_radix >= 8) {
    while (m % 8 == 0) { push(8); m /= 8; }
  }
  while (m % 4 == 0) { push(4); m /= 4; }
  while (m % 2 == 0) { push(2); m /= 2; }
  for (int r = 3; r <= 7; r += 2) {
    while (m % r == 0) { push(r); m /= r; }
  }
  for (int r = 11; static_cast<long long>(r) * r <= m; r += 2) {
    while (m % r == 0) { push(r); m /= r; }
  }
  if (m > 1) push(m);
  return plan;
}

// Padded shared-memory index: one spare complex every 16.
__device__ __forceinline__ int pad(int x) { return x + (x >> 4); }

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__device__ __forceinline__ float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
// a * (-i)
__device__ __forceinline__ float2 mul_minus_i(float2 a) { return make_float2(a.y, -a.x); }

// exp(-2 pi i m / L) for 0 <= m < L <= N, from sincospif (the argument -2m/L is one correctly rounded
// division of exact integers).
__device__ __forceinline__ float2 root_sincos(int m, int L) {
  float s = 0.0f;
  float c = 0.0f;
  sincospif(-2.0f * static_cast<float>(m) / static_cast<float>(L), &s, &c);
  return make_float2(c, s);
}

// exp(-2 pi i m / L) with L = N / stride: table[m * stride] (TWIDDLE 1) or sincospif.
__device__ __forceinline__ float2 root(int m, int L, float2 const* __restrict__ table, int stride) {
#if TWIDDLE == 1
  (void)L;
  return __ldg(&table[m * stride]);
#else
  (void)table;
  (void)stride;
  return root_sincos(m, L);
#endif
}

// exp(-2 pi i m / R) for a small constant R in {3, 5, 7} and 0 <= m < R (folds to constants).
template <int R>
__device__ __forceinline__ float2 small_root(int m) {
  float c = 1.0f;
  float s = 0.0f;
  int const h = m <= R / 2 ? m : R - m;  // cos is even; sin changes sign
  if (R == 3) {
    if (h == 1) { c = -0.5f; s = 0.8660254037844387f; }
  } else if (R == 5) {
    if (h == 1) { c = 0.30901699437494745f; s = 0.9510565162951535f; }
    if (h == 2) { c = -0.8090169943749473f; s = 0.5877852522924732f; }
  } else if (R == 7) {
    if (h == 1) { c = 0.6234898018587336f; s = 0.7818314824680298f; }
    if (h == 2) { c = -0.22252093395631434f; s = 0.9749279121818236f; }
    if (h == 3) { c = -0.900968867902419f; s = 0.43388373911755823f; }
  }
  // exp(-2 pi i m / R) = cos - i sin for m <= R/2, cos + i sin above.
  return make_float2(c, m <= R / 2 ? -s : s);
}

// In-register forward DFT of R points.
template <int R>
__device__ __forceinline__ void dft(float2 (&x)[R]) {
  if constexpr (R == 2) {
    float2 const a = x[0];
    x[0] = cadd(a, x[1]);
    x[1] = csub(a, x[1]);
  } else if constexpr (R == 4) {
    float2 const a = cadd(x[0], x[2]);
    float2 const b = csub(x[0], x[2]);
    float2 const c = cadd(x[1], x[3]);
    float2 const d = mul_minus_i(csub(x[1], x[3]));
    x[0] = cadd(a, c);
    x[2] = csub(a, c);
    x[1] = cadd(b, d);
    x[3] = csub(b, d);
  } else if constexpr (R == 8) {
    float2 e[4] = {x[0], x[2], x[4], x[6]};
    float2 o[4] = {x[1], x[3], x[5], x[7]};
    dft<4>(e);
    dft<4>(o);
    float constexpr h = 0.7071067811865476f;
    o[1] = make_float2(h * (o[1].x + o[1].y), h * (o[1].y - o[1].x));     // * exp(-i pi/4)
    o[2] = mul_minus_i(o[2]);                                             // * exp(-i pi/2)
    o[3] = make_float2(h * (o[3].y - o[3].x), -h * (o[3].x + o[3].y));    // * exp(-3i pi/4)
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      x[q] = cadd(e[q], o[q]);
      x[q + 4] = csub(e[q], o[q]);
    }
  } else {
    float2 y[R];
#pragma unroll
    for (int q = 0; q < R; ++q) {
      float2 acc = x[0];
#pragma unroll
      for (int j = 1; j < R; ++j) acc = cadd(acc, cmul(x[j], small_root<R>((j * q) % R)));
      y[q] = acc;
    }
#pragma unroll
    for (int q = 0; q < R; ++q) x[q] = y[q];
  }
}

// i mod p for p > 0 (a mask when p is a power of two).
__device__ __forceinline__ int mod_p(int i, int p) { return (p & (p - 1)) == 0 ? (i & (p - 1)) : i % p; }

// One radix-R Stockham pass over one transform (points base .. base + n - 1 of the padded buffers),
// butterflies lane, lane + width, ... ; p = product of the radices before this pass.
template <int R>
__device__ __forceinline__ void pass(float2 const* src, float2* dst, int base, int n, int p, int lane,
                                     int width, float2 const* __restrict__ table) {
  int const m = n / R;
  int const pr = p * R;
  int const stride = n / pr;  // table step: W_{pr}^j = W_N^{j * stride}
  (void)stride;               // unused when TWIDDLE == 2
  for (int i = lane; i < m; i += width) {
    int const k = mod_p(i, p);
    float2 x[R];
#pragma unroll
    for (int j = 0; j < R; ++j) x[j] = src[pad(base + i + j * m)];
    if (p > 1) {
#if TWIDDLE == 2
      float2 const w1 = root_sincos(k, pr);
      float2 w = w1;
#pragma unroll
      for (int j = 1; j < R; ++j) {
        x[j] = cmul(x[j], w);
        if (j + 1 < R) w = cmul(w, w1);
      }
#else
#pragma unroll
      for (int j = 1; j < R; ++j) x[j] = cmul(x[j], root(j * k, pr, table, stride));
#endif
    }
    dft<R>(x);
    int const o = base + (i - k) * R + k;
#pragma unroll
    for (int q = 0; q < R; ++q) dst[pad(o + q * p)] = x[q];
  }
}

// A pass of any radix r (used for primes above 7): each output is a direct r-term sum
// y[q] = sum_j x[i + j m] * W_{pr}^{j (k + q p) mod pr}, summed in runs of 32 terms for accuracy.
__device__ __forceinline__ void pass_generic(float2 const* src, float2* dst, int base, int n, int p, int r,
                                             int lane, int width, float2 const* __restrict__ table) {
  int const m = n / r;
  int const pr = p * r;
  int const stride = n / pr;
  int const work = m * r;  // (butterfly, output) pairs
  for (int t = lane; t < work; t += width) {
    int const i = t / r;
    int const q = t - i * r;
    int const k = mod_p(i, p);
    int const step = k + q * p;  // < pr
    float2 total = make_float2(0.0f, 0.0f);
    int idx = 0;  // j * step mod pr
    for (int j0 = 0; j0 < r; j0 += 32) {
      float2 run = make_float2(0.0f, 0.0f);
      int const j1 = min(r, j0 + 32);
      for (int j = j0; j < j1; ++j) {
        run = cadd(run, cmul(src[pad(base + i + j * m)], root(idx, pr, table, stride)));
        idx += step;
        if (idx >= pr) idx -= pr;
      }
      total = cadd(total, run);
    }
    dst[pad(base + (i - k) * r + k + q * p)] = total;
  }
}

// Twiddle table of one N: table[m] = exp(-2 pi i m / N).
__global__ void fill_table(float2* table, int n) {
  int const m = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (m < n) table[m] = root_sincos(m, n);
}

}  // namespace stockham_shared

#ifndef STOCKHAM_SPLIT_LAYOUT  // the interleaved layout's kernels (stockham_split.cuh: split re/im)
// Shared-memory Stockham FFT of tpb (power of two) transforms per block; `len` = padded buffer length.
__global__ void __launch_bounds__(THREADS)
    stockham_shared_kernel({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int B, int tpb,
                           int group_log2, int len, stockham_shared::Plan plan,
                           float2 const* __restrict__ table) {
  using namespace stockham_shared;
  using T = {{T}};
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
  constexpr int kBatch = 4;                                // packs in flight per thread
  extern __shared__ float4 shared_raw[];
  float2* const buf0 = reinterpret_cast<float2*>(shared_raw);
  float2* const buf1 = buf0 + len;
  int const n = plan.n;
  int const tid = static_cast<int>(threadIdx.x);
  long long const first = static_cast<long long>(blockIdx.x) * tpb;
  int const count = static_cast<int>(min(static_cast<long long>(tpb), B - first));  // transforms here
  int const values = 2 * count * n;                                                  // T values here
  long long const offset = 2 * first * n;

  // Load: values v of the block go to buf0[pad(v / 2)].re/im.
  {
    T const* src = in + offset;
    float* const f0 = reinterpret_cast<float*>(buf0);
    int done = 0;
    if (kopt_strategy::aligned_to(src, 16u)) {
      int const packs = values / kVec;
      for (int v0 = tid; v0 < packs; v0 += kBatch * THREADS) {
        kopt_strategy::Pack<T, kVec> p[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          int const v = v0 + u * THREADS;
          if (v < packs) p[u] = kopt_strategy::load_pack<T, kVec>(src + static_cast<long long>(v) * kVec);
        }
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          int const v = v0 + u * THREADS;
          if (v < packs) {
#pragma unroll
            for (int e = 0; e < kVec / 2; ++e) {
              buf0[pad(v * (kVec / 2) + e)] =
                  make_float2(kopt_strategy::to_float(p[u].v[2 * e]),
                              fft_direction::in_im(kopt_strategy::to_float(p[u].v[2 * e + 1])));
            }
          }
        }
      }
      done = packs * kVec;
    }
    for (int e = done + tid; e < values; e += THREADS)
      f0[2 * pad(e >> 1) + (e & 1)] = fft_direction::in_value(kopt_strategy::to_float(src[e]), e);
  }

  // Passes: group g of 2^group_log2 threads owns transform g.
  int const width = THREADS >> group_log2;
  int const group = tid / width;
  int const lane = tid - group * width;
  bool const active = group < count;
  int const base = group * n;
  float2* src = buf0;
  float2* dst = buf1;
  int p = 1;
  for (int s = 0; s < plan.stages; ++s) {
    __syncthreads();
    int const r = plan.radix[s];
    if (active) {
      switch (r) {
        case 2: pass<2>(src, dst, base, n, p, lane, width, table); break;
        case 3: pass<3>(src, dst, base, n, p, lane, width, table); break;
        case 4: pass<4>(src, dst, base, n, p, lane, width, table); break;
        case 5: pass<5>(src, dst, base, n, p, lane, width, table); break;
        case 7: pass<7>(src, dst, base, n, p, lane, width, table); break;
#if MAX_RADIX >= 8
        case 8: pass<8>(src, dst, base, n, p, lane, width, table); break;
#endif
        default: pass_generic(src, dst, base, n, p, r, lane, width, table); break;
      }
    }
    float2* const t = src;
    src = dst;
    dst = t;
    p *= r;
  }
  __syncthreads();

  // Store from src (the last pass's output), one rounding to T.
  {
    T* dst_out = out + offset;
    float const* f = reinterpret_cast<float const*>(src);
    int done = 0;
    if (kopt_strategy::aligned_to(dst_out, 16u)) {
      int const packs = values / kVec;
      for (int v = tid; v < packs; v += THREADS) {
        kopt_strategy::Pack<T, kVec> pk;
#pragma unroll
        for (int e = 0; e < kVec / 2; ++e) {
          float2 const c = src[pad(v * (kVec / 2) + e)];
          pk.v[2 * e] = kopt_strategy::from_float<T>(fft_direction::out_re(c.x, n));
          pk.v[2 * e + 1] = kopt_strategy::from_float<T>(fft_direction::out_im(c.y, n));
        }
        kopt_strategy::store_pack<T, kVec>(dst_out + static_cast<long long>(v) * kVec, pk);
      }
      done = packs * kVec;
    }
    for (int e = done + tid; e < values; e += THREADS) {
      dst_out[e] = kopt_strategy::from_float<T>(fft_direction::out_value(f[2 * pad(e >> 1) + (e & 1)], e, n));
    }
  }
}

// Fallback for N too large for shared memory: one thread per output, direct sum in double.
__global__ void stockham_shared_direct({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int n,
                                       long long outputs) {
  long long const o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= outputs) return;
  long long const b = o / n;
  int const k = static_cast<int>(o - b * n);
  const {{T}}* x = in + 2 * b * n;
  double re = 0.0;
  double im = 0.0;
  int m = 0;  // j * k mod n
  for (int j = 0; j < n; ++j) {
    float2 const w = stockham_shared::root_sincos(m, n);
    double const xr = kopt_strategy::to_float(x[2 * j]);
    double const xi = fft_direction::in_im(kopt_strategy::to_float(x[2 * j + 1]));
    re += xr * w.x - xi * w.y;
    im += xr * w.y + xi * w.x;
    m += k;
    if (m >= n) m -= n;
  }
  out[2 * o] = kopt_strategy::from_float<{{T}}>(fft_direction::out_re(static_cast<float>(re), n));
  out[2 * o + 1] = kopt_strategy::from_float<{{T}}>(fft_direction::out_im(static_cast<float>(im), n));
}

#endif  // STOCKHAM_SPLIT_LAYOUT

namespace stockham_shared {

// The twiddle table of n (TWIDDLE 1), computed once per n on the calling thread's default stream and
// kept for the life of the process; nullptr otherwise or if allocation fails.
inline float2 const* table_for(int n) {
#if TWIDDLE == 1
  static std::mutex lock;
  static std::map<int, float2*> tables;
  std::lock_guard<std::mutex> guard(lock);
  auto const it = tables.find(n);
  if (it != tables.end()) return it->second;
  float2* table = nullptr;
  if (cudaMalloc(&table, sizeof(float2) * static_cast<size_t>(n)) != cudaSuccess) return nullptr;
  fill_table<<<(n + 255) / 256, 256, 0, kopt_strategy::launch_stream()>>>(table, n);
  tables.emplace(n, table);
  return table;
#else
  (void)n;
  return nullptr;
#endif
}

// The largest dynamic shared memory a block may opt in to on the current device (queried once).
inline long long max_shared_bytes() {
  static long long const bytes = [] {
    int device = 0;
    int value = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return 48LL * 1024;
    if (cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) {
      return 48LL * 1024;
    }
    return static_cast<long long>(value);
  }();
  return bytes;
}

inline long long buffer_len(long long points) { return points + (points - 1) / 16 + 1; }
inline long long shared_bytes(long long points) { return 2 * buffer_len(points) * 8; }


#ifndef STOCKHAM_SPLIT_LAYOUT
// The whole batched transform: the shared-memory Stockham kernel, or the direct DFT when one transform
// does not fit shared memory. Any N >= 1 and B >= 1 (otherwise nothing to do).
inline void launch({{T}}* out, const {{T}}* in, int N, int B) {
  if (N <= 0 || B <= 0) return;
  long long const limit = max_shared_bytes();
  if (shared_bytes(N) > limit) {
    long long const outputs = static_cast<long long>(N) * B;
    stockham_shared_direct<<<static_cast<unsigned>((outputs + 255) / 256), 256, 0, kopt_strategy::launch_stream()>>>(out, in, N, outputs);
    return;
  }
  // Transforms per block: a power of two near POINTS / N, at most THREADS and B, fitting shared memory.
  int tpb = 1;
  while (2LL * tpb * N <= POINTS && 2 * tpb <= THREADS && 2 * tpb <= B &&
         shared_bytes(2LL * tpb * N) <= limit) {
    tpb *= 2;
  }
  int group_log2 = 0;
  while ((1 << group_log2) < tpb) ++group_log2;
  long long const len = buffer_len(static_cast<long long>(tpb) * N);
  long long const bytes = shared_bytes(static_cast<long long>(tpb) * N);
  static long long configured = 48LL * 1024;  // dynamic shared memory the kernel is allowed so far
  if (bytes > configured) {
    if (cudaFuncSetAttribute(stockham_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(limit)) != cudaSuccess) {
      return;
    }
    configured = limit;
  }
  Plan const plan = make_plan(N, MAX_RADIX);
  float2 const* table = table_for(N);
  if (TWIDDLE == 1 && table == nullptr) return;
  unsigned const blocks = static_cast<unsigned>((B + tpb - 1) / tpb);
  stockham_shared_kernel<<<blocks, THREADS, static_cast<size_t>(bytes), kopt_strategy::launch_stream()>>>(out, in, B, tpb, group_log2,
                                                                          static_cast<int>(len), plan, table);
}
#endif  // STOCKHAM_SPLIT_LAYOUT

}  // namespace stockham_shared
