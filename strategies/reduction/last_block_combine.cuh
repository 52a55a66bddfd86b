// The single-pass grid combine (spliced into the namespace of single_pass_last_block,
// dot_single_pass_last_block and the *_unrolled_single_pass templates by
// `// kopt:include last_block_combine.cuh`, after `using T`, the knob GRID, the `Op` and
// block_combine.cuh). Each block combines its threads' values with warp shuffles and thread 0 stores the
// block's partial in a __device__ array, fences and draws a ticket from a __device__ counter with
// atomicInc, which wraps back to 0 when the last block draws (the counter resets itself for the next
// launch). The block that draws the last ticket combines all partials in a fixed order, applies `finish`
// (the total itself for reductions and dot products; a loss's mean divides by n: loss_op.cuh) and rounds
// once to T: one kernel, deterministic, and the output needs no initialisation.

constexpr int kMaxGrid = 4096;  // >= every GRID value
static_assert(GRID <= kMaxGrid, "the partials array holds one value per block");

__device__ float partials[kMaxGrid];
__device__ unsigned int ticket = 0u;

// The value written is the combined total itself.
struct KeepTotal {
  __device__ __forceinline__ float operator()(float total) const { return total; }
};

// Called by every thread of a kernel of blocks of Threads threads with its share of the result; the last
// block writes finish(total) to *out.
template <int Threads, class Finish = KeepTotal>
__device__ __forceinline__ void last_block_combine(T* __restrict__ out, float thread_value, Finish finish = {}) {
  __shared__ bool last_block;
  float const block_value = block_combine<Threads>(thread_value);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_value;
    __threadfence();  // the partial is visible device-wide before the ticket is taken
    unsigned int const drawn = atomicInc(&ticket, gridDim.x - 1u);  // wraps to 0 after the last block
    last_block = drawn == gridDim.x - 1u;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  float acc = Op::identity();
  for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(gridDim.x); i += Threads)
    acc = Op::combine(acc, __ldcg(&partials[i]));  // from L2: other SMs wrote them
  float const total = block_combine<Threads>(acc);
  if (threadIdx.x == 0) *out = kopt_strategy::from_float<T>(finish(total));
}
