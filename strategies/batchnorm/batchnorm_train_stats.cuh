// The statistics pass of the batchnorm_train strategies (spliced into the namespace of
// batchnorm_train_channels and batchnorm_train_flat by `// kopt:include batchnorm_train_stats.cuh`, after
// `using T` and the knobs BLOCK, UNROLL, BLOCKS_PER_SM, and after ../common/multiprocessors.cuh).
//
// Contract of the family: for each channel c of an NCHW tensor x, over the N*H*W elements of its N
// planes, mean[c] = the mean and var[c] = the biased variance (divided by N*H*W, the one PyTorch
// normalises with), both rounded once to T; out = (x - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c].
//
// Numerics: every block of channel c subtracts the same shift K_c (the mean of the channel's first element
// in each of its first min(N, 32) planes, an estimate of the mean computed identically by every warp,
// rounded to 8 significant bits: a K with low-order bits made every FP32 addition of BF16 data round the
// same way, which biased a channel's mean by 4e-6 on the H200) and accumulates s1 = sum (x - K) and
// s2 = sum (x - K)^2 in FP32, with kAcc independent accumulators per thread (4: fewer registers than one
// per BF16 lane, more digits than one). From there on (a thread's accumulators, the warp shuffles, the
// block, the blocks of the channel) the sums are in double, a few dozen operations per thread, so that the
// mean of data centred near zero keeps its digits although the sum of 10^6 terms is far larger than the
// result. Because every partial has the same shift, partials combine by plain addition (no Chan update
// needed), and var = s2/n - (s1/n)^2 suffers no cancellation: s1/n = mean - K is small against the
// standard deviation. The naive E[x^2] - E[x]^2 in FP32 loses every digit of a variance that is small
// against mean^2 (data around 10 with unit spread); this does not. The last block of a channel finishes in
// double: mean, var, and the normalisation constants (K, mean - K, gamma / sqrt(var + eps), beta) as FP32,
// which the normalize pass applies as ((x - K) - (mean - K)) * scale + beta: x - K is exact for x near K,
// so data with a large offset keeps its precision.
//
// Work split: blockIdx.y is the channel (grid-stride beyond 65535 channels), the gridDim.x blocks of a
// channel ("splits") walk its positions grid-stride: a position is a 128-bit pack when H*W is a multiple of
// the pack and x is 16-byte aligned (every plane then starts on a pack), else one element. A thread keeps
// a cursor (position, offset in its plane, offset in the tensor) advanced by additions only: no division
// per element, whatever the plane size (7 x 7 or 112 x 112). The statistics pass walks the planes last to
// first, so that when it ends the first planes of every channel, which the normalize pass reads first, are
// the ones still in L2. Each block reduces (s1, s2) with warp shuffles and one barrier, stores its pair in
// a scratch array, fences and draws a ticket from its channel's counter (atomicInc wraps it back to zero,
// so it needs resetting only when the scratch is allocated); the block that draws the last ticket adds the
// channel's pairs in a fixed order (deterministic), and writes mean[c], var[c] and the constants.
//
// A "channel" is any set of N planes of hw elements C * hw apart: row_standardize_segments and
// group_norm_segments pass N = 1, C = the rows (or groups) and hw = a row's length, so each channel is one
// contiguous row, and define KOPT_SEGMENT_STATS: mean, var, gamma and beta are then not read or written
// (null), the constants are (K, mean - K, 1 / sqrt(var + eps), 0).

constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
using Vec = kopt_strategy::Pack<T, kVec>;
constexpr int kAcc = kVec < 4 ? kVec : 4;  // FP32 accumulators per sum and thread
constexpr int kMaxSplits = 4096;           // blocks per channel at most (the grid is about one wave)

using kopt_strategy::from_float;
using kopt_strategy::to_float;

// The scratch the two passes share: float4 constants per channel (K, mean - K, scale, beta), double2
// partial sums per channel and block, and an unsigned ticket counter per channel (zero between launches).
struct Scratch {
  float4* constants;
  double2* partials;
  unsigned* tickets;
};

// Grow-only device scratch (never shrunk; the counters are zeroed when allocated). False when out of memory.
bool scratch_for(int C, int splits, Scratch& s) {
  static void* data = nullptr;
  static size_t data_capacity = 0;
  static unsigned* tickets = nullptr;
  static size_t ticket_capacity = 0;
  size_t const data_bytes = static_cast<size_t>(C) * sizeof(float4) +
                            static_cast<size_t>(C) * static_cast<size_t>(splits) * sizeof(double2);
  if (data_bytes > data_capacity) {
    if (data != nullptr) cudaFree(data);  // implicitly waits for the work that still uses it
    data = nullptr;
    data_capacity = 0;
    if (cudaMalloc(&data, data_bytes) != cudaSuccess) {
      data = nullptr;
      return false;
    }
    data_capacity = data_bytes;
  }
  size_t const ticket_bytes = static_cast<size_t>(C) * sizeof(unsigned);
  if (ticket_bytes > ticket_capacity) {
    if (tickets != nullptr) cudaFree(tickets);
    tickets = nullptr;
    ticket_capacity = 0;
    if (cudaMalloc(&tickets, ticket_bytes) != cudaSuccess ||
        cudaMemsetAsync(tickets, 0, ticket_bytes, kopt_strategy::launch_stream()) != cudaSuccess) {
      if (tickets != nullptr) cudaFree(tickets);
      tickets = nullptr;
      return false;
    }
    ticket_capacity = ticket_bytes;
  }
  s.constants = static_cast<float4*>(data);
  s.partials = reinterpret_cast<double2*>(static_cast<float4*>(data) + C);
  s.tickets = tickets;
  return true;
}

// A thread's walk over the positions of one channel (positions of `width` elements: a pack or one).
struct Walk {
  long long positions;  // N * per_plane
  long long per_plane;  // positions per plane (H*W / width; width divides H*W)
  long long stride;     // positions advanced per step: the threads walking the channel
  long long step_o;     // stride % per_plane
  long long step_at;    // element offset added per step, before a wrap into the next plane
  long long wrap_at;    // element offset added when the offset in the plane wraps
};

struct Cursor {
  long long q;   // position among the channel's
  long long o;   // position within its plane
  long long at;  // element offset of the position in the tensor
};

// dir = +1 walks planes 0, 1, ..., N-1; dir = -1 walks them N-1, ..., 0 (each plane still in address order).
__device__ __forceinline__ Walk make_walk(int N, int C, long long hw, int width, long long stride, int dir) {
  Walk w;
  w.per_plane = hw / width;
  w.positions = w.per_plane > 0 ? static_cast<long long>(N) * w.per_plane : 0;
  w.stride = stride;
  long long const planes = w.per_plane > 0 ? stride / w.per_plane : 0;
  w.step_o = w.per_plane > 0 ? stride - planes * w.per_plane : 0;
  w.step_at = dir * planes * C * hw + w.step_o * width;
  // (n, o) with o >= per_plane is (n + 1, o - per_plane): C * hw further along the batch, hw back in the
  // plane.
  w.wrap_at = dir > 0 ? (static_cast<long long>(C) - 1) * hw : -(static_cast<long long>(C) + 1) * hw;
  return w;
}

__device__ __forceinline__ Cursor start(Walk const& w, long long q, int N, int C, int c, long long hw,
                                        int width, int dir) {
  if (q >= w.positions) return {q, 0, 0};
  long long const n = q / w.per_plane;
  long long const o = q - n * w.per_plane;
  long long const plane = dir > 0 ? n : static_cast<long long>(N) - 1 - n;
  return {q, o, (plane * C + c) * hw + o * width};
}

__device__ __forceinline__ void advance(Cursor& p, Walk const& w) {
  p.q += w.stride;
  p.o += w.step_o;
  p.at += w.step_at;
  if (p.o >= w.per_plane) {  // step_o < per_plane: at most one wrap
    p.o -= w.per_plane;
    p.at += w.wrap_at;
  }
}

// The shift K_c: the mean of x[n][c][0][0] over n < min(N, 32), rounded to BF16 precision. The xor butterfly
// gives every lane the same sum, and every warp of every block of the channel computes it the same way, so
// all use one K_c.
// Called by all 32 lanes of a warp.
__device__ __forceinline__ float channel_shift(const T* __restrict__ x, int N, int C, int c, long long hw) {
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const m = N < 32 ? N : 32;
  float v = 0.0f;
  if (lane < m && hw > 0) v = to_float(x[(static_cast<long long>(lane) * C + c) * hw]);
  float const sum = kopt_strategy::warp_sum(v);
  // Rounded to 8 significant bits: x - K then carries no low-order bits of K, whose rounding in every
  // addition would otherwise be the same each time (BF16 or other coarse data) and bias the sums.
  return m > 0 ? __bfloat162float(__float2bfloat16_rn(sum / static_cast<float>(m))) : 0.0f;
}

__device__ __forceinline__ double warp_sum_double(double v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// (a, b) summed over the block in double, valid in warp 0. Two calls must be separated by a __syncthreads().
__device__ __forceinline__ double2 block_sum2(double a, double b) {
  __shared__ double2 warp_sums[BLOCK / 32];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  a = warp_sum_double(a);
  b = warp_sum_double(b);
  if (lane == 0) warp_sums[warp] = make_double2(a, b);
  __syncthreads();
  double2 r = make_double2(0.0, 0.0);
  if (warp == 0) {
    if (lane < BLOCK / 32) r = warp_sums[lane];
    r.x = warp_sum_double(r.x);
    r.y = warp_sum_double(r.y);
  }
  return r;
}

__device__ __forceinline__ void add_centred(float v, float shift, float& s1, float& s2) {
  float const d = v - shift;
  s1 += d;
  s2 = fmaf(d, d, s2);
}

// KOPT_TORCH_STATS (a manifest `defines`): PyTorch's native_batch_norm in training (and cuDNN's
// BatchNormalizationForwardTraining): `var` receives the saved inverse standard deviation 1 / sqrt(var + eps)
// in place of the variance, and the running statistics move towards the batch's, running = (1 - momentum) *
// running + momentum * batch, with the unbiased variance (times count / (count - 1)), in double, rounded
// once to T. The entry takes running_mean, running_var and momentum last.
#ifndef KOPT_TORCH_STATS
#define KOPT_TORCH_STATS 0
#endif
#ifndef KOPT_SEGMENT_STATS
#define KOPT_SEGMENT_STATS 0
#endif
// KOPT_FORWARD_ONLY (a manifest `defines`): nn.BatchNorm2d's forward in training, which returns the output only:
// the entry takes no mean or var, which are then neither written nor read (null).
#ifndef KOPT_FORWARD_ONLY
#define KOPT_FORWARD_ONLY 0
#endif
#if KOPT_TORCH_STATS
struct RunningStats {
  T* mean;
  T* var;
  float momentum;
};
#endif

__global__ void __launch_bounds__(BLOCK)
    stats_kernel(T* __restrict__ mean, T* __restrict__ var, const T* __restrict__ x,
                 const T* __restrict__ gamma, const T* __restrict__ beta, float eps, int N, int C,
                 long long hw, Scratch s
#if KOPT_TORCH_STATS
                 , RunningStats running
#endif
                 ) {
  __shared__ bool last_block;
  unsigned const splits = gridDim.x;
  bool const vec = hw % kVec == 0 && kopt_strategy::aligned_to(x, sizeof(Vec));
  int const width = vec ? kVec : 1;
  long long const stride = static_cast<long long>(splits) * BLOCK;
  long long const first = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  for (int c = static_cast<int>(blockIdx.y); c < C; c += static_cast<int>(gridDim.y)) {
    float const shift = channel_shift(x, N, C, c, hw);
    Walk const w = make_walk(N, C, hw, width, stride, -1);
    Cursor p = start(w, first, N, C, c, hw, width, -1);
    float s1[kAcc];
    float s2[kAcc];
#pragma unroll
    for (int e = 0; e < kAcc; ++e) s1[e] = s2[e] = 0.0f;
    if (vec) {
      while (p.q < w.positions) {
        Vec v[UNROLL];
        bool ok[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {  // every load of the step issued before the first use
          ok[u] = p.q < w.positions;
          if (ok[u]) v[u] = kopt_strategy::load_pack<T, kVec>(x + p.at);
          advance(p, w);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
          if (!ok[u]) continue;
#pragma unroll
          for (int e = 0; e < kVec; ++e) add_centred(to_float(v[u].v[e]), shift, s1[e % kAcc], s2[e % kAcc]);
        }
      }
    } else {
      while (p.q < w.positions) {
        float v[UNROLL];
        bool ok[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
          ok[u] = p.q < w.positions;
          if (ok[u]) v[u] = to_float(x[p.at]);
          advance(p, w);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u)
          if (ok[u]) add_centred(v[u], shift, s1[u % kAcc], s2[u % kAcc]);
      }
    }
    double a = 0.0;
    double b = 0.0;
#pragma unroll
    for (int e = 0; e < kAcc; ++e) {
      a += s1[e];
      b += s2[e];
    }
    double2 const block = block_sum2(a, b);
    if (threadIdx.x == 0) {
      s.partials[static_cast<long long>(c) * splits + blockIdx.x] = block;
      __threadfence();  // the pair is visible device-wide before the ticket is drawn
      unsigned const drawn = atomicInc(&s.tickets[c], splits - 1u);  // wraps to 0 after the last block
      last_block = drawn == splits - 1u;
    }
    __syncthreads();
    if (last_block) {  // the same value in every thread of the block
      __threadfence();
      double2 const* pairs = s.partials + static_cast<long long>(c) * splits;
      double ta = 0.0;
      double tb = 0.0;
      for (unsigned i = threadIdx.x; i < splits; i += BLOCK) {
        double2 const v = __ldcg(&pairs[i]);  // from L2: other SMs wrote them
        ta += v.x;
        tb += v.y;
      }
      double2 const total = block_sum2(ta, tb);
      if (threadIdx.x == 0) {
        double const count = static_cast<double>(N) * static_cast<double>(hw);
        double const d = total.x / count;        // mean - K
        double const squares = total.y / count;  // mean of (x - K)^2
        double v = squares - d * d;
        // A variance below the FP32 rounding of the squares is noise: 0 (a constant channel, x != K, gave
        // 8e-19 for a true 0 on the H200).
        if (v <= 0x1p-22 * squares) v = 0.0;
#if KOPT_SEGMENT_STATS
        (void)mean;
        (void)var;
        (void)gamma;
        (void)beta;
        double const rstd = 1.0 / sqrt(v + static_cast<double>(eps));
        s.constants[c] = make_float4(shift, static_cast<float>(d), static_cast<float>(rstd), 0.0f);
#else
#if KOPT_FORWARD_ONLY
        (void)mean;
        (void)var;
#else
        mean[c] = from_float<T>(static_cast<float>(static_cast<double>(shift) + d));
#endif
#if KOPT_TORCH_STATS
        var[c] = from_float<T>(static_cast<float>(1.0 / sqrt(v + static_cast<double>(eps))));
        double const unbiased = count > 1.0 ? v * count / (count - 1.0) : v;
        double const m = static_cast<double>(running.momentum);
        running.mean[c] = from_float<T>(static_cast<float>(
            (1.0 - m) * static_cast<double>(to_float(running.mean[c])) + m * (static_cast<double>(shift) + d)));
        running.var[c] = from_float<T>(
            static_cast<float>((1.0 - m) * static_cast<double>(to_float(running.var[c])) + m * unbiased));
#elif !KOPT_FORWARD_ONLY
        var[c] = from_float<T>(static_cast<float>(v));
#endif
        double const scale = static_cast<double>(to_float(gamma[c])) / sqrt(v + static_cast<double>(eps));
        s.constants[c] =
            make_float4(shift, static_cast<float>(d), static_cast<float>(scale), to_float(beta[c]));
#endif
      }
    }
    __syncthreads();  // the shared pair sums and last_block are reused by the next channel
  }
}

// Blocks per SM that the occupancy calculator allows for `kernel` with BLOCK threads, capped by the knob.
template <typename Kernel>
int resident_blocks(Kernel kernel) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, BLOCK, 0) != cudaSuccess || blocks < 1)
    blocks = 1;
  return blocks < BLOCKS_PER_SM ? blocks : BLOCKS_PER_SM;
}

// Blocks per channel: about one wave of the statistics kernel over all channels (at least one per channel),
// no more than the channel has steps of BLOCK threads with UNROLL packs each.
int splits_for(int N, int C, long long hw) {
  static int const per_sm = resident_blocks(stats_kernel);
  long long const wave = static_cast<long long>(multiprocessors()) * per_sm;
  long long splits = wave / C;
  long long const per_block = static_cast<long long>(BLOCK) * UNROLL * kVec;
  long long const work = (static_cast<long long>(N) * hw + per_block - 1) / per_block;
  if (splits > work) splits = work;
  if (splits > kMaxSplits) splits = kMaxSplits;
  if (splits < 1) splits = 1;
  return static_cast<int>(splits);
}

// The statistics pass: mean, var and the constants of every channel. False when the scratch is missing.
bool launch_stats(T* mean, T* var, const T* x, const T* gamma, const T* beta, float eps, int N, int C,
                  long long hw, int splits, Scratch& s
#if KOPT_TORCH_STATS
                  , RunningStats running
#endif
                  ) {
  if (!scratch_for(C, splits, s)) return false;
  dim3 const grid(static_cast<unsigned>(splits), static_cast<unsigned>(C < 65535 ? C : 65535));
#if KOPT_TORCH_STATS
  stats_kernel<<<grid, BLOCK, 0, kopt_strategy::launch_stream()>>>(mean, var, x, gamma, beta, eps, N, C, hw, s,
                                                                   running);
#else
  stats_kernel<<<grid, BLOCK, 0, kopt_strategy::launch_stream()>>>(mean, var, x, gamma, beta, eps, N, C, hw, s);
#endif
  return true;
}
