// Strategy row_normalize_block_per_row, row_normalize family (launcher mode): every row of a row-major
// rows x cols matrix scaled by a statistic of its own, out[r][j] = in[r][j] * m_r with
//   m_r = finish(combine over map(in[r][j]) for j < cols),
// the task's [strategy_params] in FP32: `map` over `v` (an element), `combine` over `a`, `b`, `identity`,
// and `finish` over `s` (the combined value) and `n` (cols, as float) giving the multiplier. L2
// normalisation (F.normalize, x / torch.norm(x, dim=-1, keepdim=True)) is `v * v`, `a + b`, `0.0f`,
// `1.0f / sqrtf(s)`; RMS normalisation without a weight `rsqrtf(s / n + eps)`; L1 by the mean absolute value
// `fabsf(v)`, `1.0f / (s / n)`; a max-abs scaling `fabsf(v)`, `fmaxf(a, b)`.
//
// Many rows: one kernel, a block per row reads it with 128-bit loads (row_partial.cuh: a scalar head up to
// the first 16-byte boundary and a scalar tail, so any cols and alignment), UNROLL in flight per thread,
// with the L2 evict-last policy (HINT 2) so that the row is still there for the second read; the block
// combines (warp shuffles, then shared memory), one thread finishes m_r, and the block reads the row again,
// from its end back (the last lines read first: those most surely still in L2), and stores in[j] * m_r
// streaming. Few long rows (the grid would not fill the GPU; a Frobenius normalisation is one row): each row
// is split over up to GRID / rows blocks, whose partials the row's last block (a self-resetting atomic
// ticket) combines in a fixed order into m_r; a second kernel scales the pieces, last piece first.
// Deterministic, no float atomics. One read of the row from DRAM when it stays in L2 between the passes
// (rows up to a few hundred KB with the default knobs), two otherwise, and one write.
//
// Knobs: BLOCK threads per row (or piece); UNROLL 128-bit loads in flight per thread; GRID the blocks aimed
// at when rows are few; HINT the first pass's loads (2: L2 evict-last policy, 1: ld.global.cs, 0: ld.global.nc)
// and, from 1, streaming loads and stores in the second.
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [264, 528, 1056] resources=none
// kopt:knob HINT = [2, 0, 1] resources=none
// kopt:constraint BLOCK * UNROLL <= 4096

#include <cuda_runtime.h>

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 528
#endif
#ifndef HINT
#define HINT 2
#endif

namespace row_normalize_block_per_row {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include axis_op.cuh
// kopt:include row_partial.cuh

static_assert(BLOCK % 32 == 0 && BLOCK <= 1024 && (BLOCK & (BLOCK - 1)) == 0, "a power-of-two block of warps");

struct Map {
  __device__ __forceinline__ float operator()(float v) const { return ({{map}}); }
};

// A split happens only when rows * splits <= GRID: GRID partials, multipliers and counters are enough.
constexpr int kMaxPieces = 1056;
static_assert(GRID <= kMaxPieces, "one partial per block of a split row");
__device__ float partials[kMaxPieces];
__device__ float multipliers[kMaxPieces];
__device__ unsigned int tickets[kMaxPieces];

using Vec = kopt_strategy::Pack<T, kVec>;

// The L2 policy of the first pass's loads (HINT 2: keep the lines for the second pass).
__device__ __forceinline__ unsigned long long evict_last_policy() {
  unsigned long long policy = 0ull;
#if HINT == 2
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
#endif
  return policy;
}

__device__ __forceinline__ Vec load_again(const T* p) {
#if HINT >= 1
  uint4 const r = __ldcs(reinterpret_cast<uint4 const*>(p));
  return *reinterpret_cast<Vec const*>(&r);
#else
  return kopt_strategy::load_pack<T, kVec>(p);
#endif
}

__device__ __forceinline__ void store_scaled(T* p, Vec v, float m) {
#pragma unroll
  for (int e = 0; e < kVec; ++e) v.v[e] = kopt_strategy::from_float<T>(kopt_strategy::to_float(v.v[e]) * m);
#if HINT >= 1
  __stcs(reinterpret_cast<uint4*>(p), *reinterpret_cast<uint4 const*>(&v));
#else
  kopt_strategy::store_pack<T, kVec>(p, v);
#endif
}

// out[i] = in[i] * m for i in [0, count), by the thread `lane` of Group threads, walked from the end back.
// 128-bit packs when in and out sit at the same offset from a 16-byte boundary (the usual case: both buffers
// aligned, the same row offset), else element by element; UNROLL packs loaded before any is stored.
template <int Group>
__device__ __forceinline__ void scale_stretch(T* __restrict__ out, const T* __restrict__ in, long long count,
                                              int lane, float m) {
  unsigned long long const a = reinterpret_cast<unsigned long long>(in);
  unsigned long long const b = reinterpret_cast<unsigned long long>(out);
  long long head = static_cast<long long>(((16ull - (a & 15ull)) & 15ull) / sizeof(T));
  if (a % sizeof(T) != 0 || (a & 15ull) != (b & 15ull) || head > count) head = count;
  long long const packs = (count - head) / kVec;
  for (long long t = count - 1 - lane; t >= head + packs * kVec; t -= Group)
    out[t] = kopt_strategy::from_float<T>(kopt_strategy::to_float(in[t]) * m);
  T const* const body_in = in + head;
  T* const body_out = out + head;
  long long p = packs - 1 - lane;
#pragma unroll 1
  for (; p - (UNROLL - 1) * Group >= 0; p -= UNROLL * Group) {
    Vec v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = load_again(body_in + (p - u * Group) * kVec);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) store_scaled(body_out + (p - u * Group) * kVec, v[u], m);
  }
  for (; p >= 0; p -= Group) store_scaled(body_out + p * kVec, load_again(body_in + p * kVec), m);
  for (long long t = head - 1 - lane; t >= 0; t -= Group)
    out[t] = kopt_strategy::from_float<T>(kopt_strategy::to_float(in[t]) * m);
}

// Many rows: a block per row, both passes.
__global__ void __launch_bounds__(BLOCK)
    row_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  long long const row = blockIdx.x;
  T const* const x = in + row * cols;
  float v = row_partial<BLOCK, Map>(x, cols, static_cast<int>(threadIdx.x), evict_last_policy());
  v = block_combine<BLOCK>(v);
  __shared__ float m;
  if (threadIdx.x == 0) m = Op::finish(v, static_cast<float>(cols), rows, cols);
  __syncthreads();
  scale_stretch<BLOCK>(out + row * cols, x, cols, static_cast<int>(threadIdx.x), m);
}

// Row r's pieces: `chunk` elements each (a multiple of 256, so they start 16-byte aligned whenever the row
// does), the last one shorter or empty.
struct Piece {
  long long row;
  long long begin;
  long long end;
};

__device__ __forceinline__ Piece piece_of(unsigned block, unsigned splits, int cols) {
  Piece p;
  p.row = block / splits;
  unsigned const share = (static_cast<unsigned>(cols) + splits - 1u) / splits;
  long long const chunk = (static_cast<long long>(share) + 255) / 256 * 256;
  p.begin = static_cast<long long>(block % splits) * chunk;
  p.end = p.begin + chunk < cols ? p.begin + chunk : cols;
  return p;
}

// Few rows, pass 1: each piece's partial; the row's last piece (ticket) writes m_r.
__global__ void __launch_bounds__(BLOCK) partial_kernel(const T* __restrict__ in, int rows, int cols) {
  unsigned const splits = gridDim.x / static_cast<unsigned>(rows);
  Piece const piece = piece_of(blockIdx.x, splits, cols);
  float v = Op::identity();
  if (piece.begin < piece.end)
    v = row_partial<BLOCK, Map>(in + piece.row * cols + piece.begin, piece.end - piece.begin,
                                static_cast<int>(threadIdx.x), evict_last_policy());
  v = block_combine<BLOCK>(v);
  __shared__ bool last_piece;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = v;
    __threadfence();  // the partial is visible device-wide before the ticket is drawn
    unsigned const drawn = atomicInc(&tickets[piece.row], splits - 1u);  // wraps to 0 after the last piece
    last_piece = drawn == splits - 1u;
  }
  __syncthreads();
  if (!last_piece || threadIdx.x >= 32) return;
  __threadfence();
  float acc = Op::identity();
  for (unsigned s = threadIdx.x; s < splits; s += 32u)
    acc = Op::combine(acc, __ldcg(&partials[piece.row * splits + s]));  // from L2: other SMs wrote them
  acc = group_combine<32>(acc);
  if (threadIdx.x == 0) multipliers[piece.row] = Op::finish(acc, static_cast<float>(cols), rows, cols);
}

// Few rows, pass 2: the pieces in reverse order of pass 1, each scaled by its row's m_r.
__global__ void __launch_bounds__(BLOCK) scale_kernel(T* __restrict__ out, const T* __restrict__ in, int rows,
                                                      int cols) {
  unsigned const splits = gridDim.x / static_cast<unsigned>(rows);
  Piece const piece = piece_of(gridDim.x - 1u - blockIdx.x, splits, cols);
  if (piece.begin >= piece.end) return;
  long long const at = piece.row * cols + piece.begin;
  scale_stretch<BLOCK>(out + at, in + at, piece.end - piece.begin, static_cast<int>(threadIdx.x),
                       multipliers[piece.row]);  // written by pass 1 (an earlier kernel)
}

}  // namespace row_normalize_block_per_row

extern "C" void {{ENTRY}}({{T}}* out, const {{T}}* in, int rows, int cols) {
  using namespace row_normalize_block_per_row;
  if (rows <= 0 || cols <= 0) return;
  long long const per_block = static_cast<long long>(BLOCK) * UNROLL * 8;
  long long splits = (cols + per_block - 1) / per_block;
  if (splits > GRID / rows) splits = GRID / rows;
  if (splits < 1) splits = 1;
  if (splits == 1) {
    row_kernel<<<static_cast<unsigned>(rows), BLOCK, 0, kopt_strategy::launch_stream()>>>(out, in, rows, cols);
    return;
  }
  unsigned const blocks = static_cast<unsigned>(rows * splits);
  partial_kernel<<<blocks, BLOCK, 0, kopt_strategy::launch_stream()>>>(in, rows, cols);
  scale_kernel<<<blocks, BLOCK, 0, kopt_strategy::launch_stream()>>>(out, in, rows, cols);
}
