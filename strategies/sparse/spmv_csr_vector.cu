// Strategy spmv_csr_vector: y = A x with A in CSR, a group of LANES consecutive lanes per row.
// The lanes of a group walk the row's nonzeros together (lane l takes nonzeros l, l + LANES, ...), so the
// col_idx / vals loads of a row are contiguous, and each lane keeps UNROLL loads in flight before it
// gathers x. The group's partial sums are combined with xor shuffles (fixed order, deterministic) and the
// first lane writes y[row], rounded once. LANES = 1 is scalar CSR (one thread per row, for very short
// rows); LANES = 32 is warp-per-row vector CSR. Rows past M take part in the shuffles with an empty range.
//
// kopt:knob LANES = [1, 2, 4, 8, 16, 32]
// kopt:knob BLOCK = [64, 128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4]
// kopt:launch grid=(ceil_div({{ARG5}} * LANES, BLOCK)) block=(BLOCK) kernel={{ENTRY}}

#ifndef LANES
#define LANES 8
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 2
#endif

static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "LANES is a power of two <= 32");
static_assert(BLOCK % 32 == 0, "BLOCK is whole warps");

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ y, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
              const {{T}}* __restrict__ vals, const {{T}}* __restrict__ x, int M, int N, int NNZ) {
  using namespace kopt_strategy;
  (void)N;
  (void)NNZ;
  long long const gid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const row = gid / LANES;
  int const lane = static_cast<int>(gid % LANES);
  int begin = 0;
  int end = 0;
  if (row < M) {
    begin = row_ptr[row];
    end = row_ptr[row + 1];
  }
  float sum = 0.0f;
  for (int k = begin + lane; k < end; k += LANES * UNROLL) {
    int cols[UNROLL];
    float v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      int const kk = k + u * LANES;
      cols[u] = kk < end ? col_idx[kk] : -1;
      v[u] = kk < end ? to_float(vals[kk]) : 0.0f;
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      if (cols[u] >= 0) sum += v[u] * to_float(x[cols[u]]);
    }
  }
#pragma unroll
  for (int offset = LANES / 2; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (row < M && lane == 0) y[row] = from_float<{{T}}>(sum);
}
