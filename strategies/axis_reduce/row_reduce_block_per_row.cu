// Strategy row_reduce_block_per_row, row_reduce family (kernel mode): out[r] = finish(combine over
// in[r*cols + c] for c < cols), a row-major rows x cols matrix. Each row belongs to a block of BLOCK
// threads: they read it with 128-bit loads (a scalar head up to the row's first 16-byte boundary and a
// scalar tail, so any cols and any alignment), UNROLL loads in flight per thread, accumulate in FP32, and
// combine with warp shuffles and then across warps through shared memory.
//
// Few long rows would leave SMs idle, so a row is split over up to GRID / rows blocks (the launch line
// works the split out: at least BLOCK * UNROLL * 8 elements per block, about GRID blocks in all): each
// block stores its partial in a __device__ array, fences and draws a ticket from the row's __device__
// counter with atomicInc, which wraps back to 0 when the row's last block draws (self-resetting, so
// back-to-back launches work); that block combines the row's partials in a fixed order and writes the
// value rounded once to T. Deterministic, one kernel, no float atomics; with more than GRID / 2 rows (or
// rows shorter than one block's share) there is no split and no ticket at all.
//
// Knobs: BLOCK threads per row (or per piece of one); UNROLL 128-bit loads in flight per thread; GRID the
// blocks aimed at when rows are few (multiples of the H200's 132 SMs); HINT the loads' cache policy (2:
// L2 evict-first + 256-byte fetches, 1: ld.global.cs, 0: ld.global.nc). Constraint: UNROLL 128-bit
// loads per thread fit the 64 registers a 1024-thread block leaves.
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [264, 528, 1056] resources=none
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:constraint BLOCK * UNROLL <= 4096
// kopt:launch grid=({{ARG2}} * max(1, min(ceil_div({{ARG3}}, BLOCK * UNROLL * 8), GRID / {{ARG2}}))) block=(BLOCK) kernel={{ENTRY}}

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

namespace row_reduce_block_per_row {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include axis_op.cuh
// kopt:include row_partial.cuh

static_assert(BLOCK % 32 == 0 && BLOCK <= 1024 && (BLOCK & (BLOCK - 1)) == 0, "a power-of-two block of warps");

// A split happens only when rows * splits <= GRID, so GRID partials and GRID counters are enough.
constexpr int kMaxPieces = 1056;
static_assert(GRID <= kMaxPieces, "one partial per block of a split row");
__device__ float partials[kMaxPieces];
__device__ unsigned int tickets[kMaxPieces];

}  // namespace row_reduce_block_per_row

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace row_reduce_block_per_row;
  if (rows <= 0) return;
  // The launch line's split: gridDim.x = rows * splits (32-bit division: no 64-bit division routine).
  unsigned int const splits = gridDim.x / static_cast<unsigned int>(rows);
  long long const row = blockIdx.x / splits;
  long long const piece = blockIdx.x % splits;
  // The row's pieces: `chunk` elements each (a multiple of 256, so they start 16-byte aligned whenever the
  // row does), the last one shorter or empty.
  unsigned int const share = (static_cast<unsigned int>(cols) + splits - 1u) / splits;
  long long const chunk = (static_cast<long long>(share) + 255) / 256 * 256;
  long long const begin = piece * chunk;
  long long const end = begin + chunk < cols ? begin + chunk : cols;
  float v = Op::identity();
  if (begin < end)
    v = row_partial<BLOCK>(in + row * cols + begin, end - begin, static_cast<int>(threadIdx.x), evict_first_policy());
  v = block_combine<BLOCK>(v);
  if (splits == 1) {
    if (threadIdx.x == 0)
      out[row] = kopt_strategy::from_float<T>(Op::finish(v, static_cast<float>(cols), rows, cols));
    return;
  }
  __shared__ bool last_piece;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = v;
    __threadfence();  // the partial is visible device-wide before the ticket is drawn
    unsigned int const drawn = atomicInc(&tickets[row], splits - 1u);
    last_piece = drawn == splits - 1u;
  }
  __syncthreads();
  if (!last_piece || threadIdx.x >= 32) return;
  __threadfence();
  float acc = Op::identity();
  for (unsigned int s = threadIdx.x; s < splits; s += 32u)
    acc = Op::combine(acc, __ldcg(&partials[row * splits + s]));  // from L2: other SMs wrote them
  acc = group_combine<32>(acc);
  if (threadIdx.x == 0)
    out[row] = kopt_strategy::from_float<T>(Op::finish(acc, static_cast<float>(cols), rows, cols));
}
