// Shared body of the fft_split strategies' Stockham path (spliced by `// kopt:include stockham_split.cuh`
// after stockham_core.cuh, the template having defined STOCKHAM_SPLIT_LAYOUT): the shared-memory
// mixed-radix Stockham kernel for the split layout (real parts in one array, imaginary parts in another),
// its direct-DFT fallback for N beyond shared memory, and the host launcher
// stockham_split::launch(out_re, out_im, in_re, in_im, N, B). The passes, plan, twiddles and limits are
// stockham_core.cuh's; only the loads and stores differ from the interleaved kernel: a thread reads a
// 128-bit pack of real parts and the pack of imaginary parts of the same points and writes them to shared
// memory as complex pairs, and the store does the reverse. stockham_split_shared.cu describes the whole.

// Shared-memory Stockham FFT of tpb (power of two) transforms per block, split re/im arrays; `len` = padded
// buffer length.
__global__ void __launch_bounds__(THREADS)
    stockham_split_kernel({{T}}* __restrict__ out_re, {{T}}* __restrict__ out_im,
                          const {{T}}* __restrict__ in_re, const {{T}}* __restrict__ in_im, int B, int tpb,
                          int group_log2, int len, stockham_shared::Plan plan,
                          float2 const* __restrict__ table) {
  using namespace stockham_shared;
  using T = {{T}};
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // points per 128-bit pack of one array
  constexpr int kBatch = 2;  // (re, im) pack pairs in flight per thread: 4 x 16 bytes, as stockham_shared
  extern __shared__ float4 shared_raw[];
  float2* const buf0 = reinterpret_cast<float2*>(shared_raw);
  float2* const buf1 = buf0 + len;
  int const n = plan.n;
  int const tid = static_cast<int>(threadIdx.x);
  long long const first = static_cast<long long>(blockIdx.x) * tpb;
  int const count = static_cast<int>(min(static_cast<long long>(tpb), B - first));  // transforms here
  int const points = count * n;                                                     // complex points here
  long long const offset = first * n;

  // Load: point c of the block goes to buf0[pad(c)] = (re, im).
  {
    T const* src_re = in_re + offset;
    T const* src_im = in_im + offset;
    int done = 0;
    if (kopt_strategy::aligned_to(src_re, 16u) && kopt_strategy::aligned_to(src_im, 16u)) {
      int const packs = points / kVec;
      for (int v0 = tid; v0 < packs; v0 += kBatch * THREADS) {
        kopt_strategy::Pack<T, kVec> re[kBatch];
        kopt_strategy::Pack<T, kVec> im[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          int const v = v0 + u * THREADS;
          if (v < packs) {
            re[u] = kopt_strategy::load_pack<T, kVec>(src_re + static_cast<long long>(v) * kVec);
            im[u] = kopt_strategy::load_pack<T, kVec>(src_im + static_cast<long long>(v) * kVec);
          }
        }
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          int const v = v0 + u * THREADS;
          if (v < packs) {
#pragma unroll
            for (int e = 0; e < kVec; ++e) {
              buf0[pad(v * kVec + e)] =
                  make_float2(kopt_strategy::to_float(re[u].v[e]),
                              fft_direction::in_im(kopt_strategy::to_float(im[u].v[e])));
            }
          }
        }
      }
      done = packs * kVec;
    }
    for (int c = done + tid; c < points; c += THREADS) {
      buf0[pad(c)] = make_float2(kopt_strategy::to_float(src_re[c]),
                                 fft_direction::in_im(kopt_strategy::to_float(src_im[c])));
    }
  }

  // Passes: group g of 2^group_log2 threads owns transform g (as stockham_shared_kernel).
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

  // Store from src (the last pass's output), one rounding to T per value.
  {
    T* const dst_re = out_re + offset;
    T* const dst_im = out_im + offset;
    int done = 0;
    if (kopt_strategy::aligned_to(dst_re, 16u) && kopt_strategy::aligned_to(dst_im, 16u)) {
      int const packs = points / kVec;
      for (int v = tid; v < packs; v += THREADS) {
        kopt_strategy::Pack<T, kVec> re;
        kopt_strategy::Pack<T, kVec> im;
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          float2 const c = src[pad(v * kVec + e)];
          re.v[e] = kopt_strategy::from_float<T>(fft_direction::out_re(c.x, n));
          im.v[e] = kopt_strategy::from_float<T>(fft_direction::out_im(c.y, n));
        }
        kopt_strategy::store_pack<T, kVec>(dst_re + static_cast<long long>(v) * kVec, re);
        kopt_strategy::store_pack<T, kVec>(dst_im + static_cast<long long>(v) * kVec, im);
      }
      done = packs * kVec;
    }
    for (int c = done + tid; c < points; c += THREADS) {
      float2 const value = src[pad(c)];
      dst_re[c] = kopt_strategy::from_float<T>(fft_direction::out_re(value.x, n));
      dst_im[c] = kopt_strategy::from_float<T>(fft_direction::out_im(value.y, n));
    }
  }
}

// Fallback for N too large for shared memory: one thread per output, direct sum in double.
__global__ void stockham_split_direct({{T}}* __restrict__ out_re, {{T}}* __restrict__ out_im,
                                      const {{T}}* __restrict__ in_re, const {{T}}* __restrict__ in_im, int n,
                                      long long outputs) {
  long long const o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= outputs) return;
  long long const b = o / n;
  int const k = static_cast<int>(o - b * n);
  const {{T}}* xr = in_re + b * n;
  const {{T}}* xi = in_im + b * n;
  double re = 0.0;
  double im = 0.0;
  int m = 0;  // j * k mod n
  for (int j = 0; j < n; ++j) {
    float2 const w = stockham_shared::root_sincos(m, n);
    double const a = kopt_strategy::to_float(xr[j]);
    double const c = fft_direction::in_im(kopt_strategy::to_float(xi[j]));
    re += a * w.x - c * w.y;
    im += a * w.y + c * w.x;
    m += k;
    if (m >= n) m -= n;
  }
  out_re[o] = kopt_strategy::from_float<{{T}}>(fft_direction::out_re(static_cast<float>(re), n));
  out_im[o] = kopt_strategy::from_float<{{T}}>(fft_direction::out_im(static_cast<float>(im), n));
}

namespace stockham_split {

// The whole batched transform: the shared-memory Stockham kernel, or the direct DFT when one transform
// does not fit shared memory. Any N >= 1 and B >= 1 (otherwise nothing to do). Internal linkage (static),
// not inline: a function-local static of an inline function is one object per process (GCC makes it
// STB_GNU_UNIQUE), so `configured` would be shared by every candidate library loaded into kopt's worker,
// and a second candidate would skip opting its own kernel in to more than 48 KiB of shared memory (its
// launch then fails with cudaErrorInvalidValue; seen on the H200 on 2026-12-03).
static void launch({{T}}* out_re, {{T}}* out_im, const {{T}}* in_re, const {{T}}* in_im, int N, int B) {
  using namespace stockham_shared;
  if (N <= 0 || B <= 0) return;
  long long const limit = max_shared_bytes();
  if (shared_bytes(N) > limit) {
    long long const outputs = static_cast<long long>(N) * B;
    stockham_split_direct<<<static_cast<unsigned>((outputs + 255) / 256), 256, 0, kopt_strategy::launch_stream()>>>(out_re, out_im, in_re, in_im,
                                                                                 N, outputs);
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
    if (cudaFuncSetAttribute(stockham_split_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(limit)) != cudaSuccess) {
      return;
    }
    configured = limit;
  }
  Plan const plan = make_plan(N, MAX_RADIX);
  float2 const* table = table_for(N);
  if (TWIDDLE == 1 && table == nullptr) return;
  unsigned const blocks = static_cast<unsigned>((static_cast<long long>(B) + tpb - 1) / tpb);
  stockham_split_kernel<<<blocks, THREADS, static_cast<size_t>(bytes), kopt_strategy::launch_stream()>>>(
      out_re, out_im, in_re, in_im, B, tpb, group_log2, static_cast<int>(len), plan, table);
}

}  // namespace stockham_split
