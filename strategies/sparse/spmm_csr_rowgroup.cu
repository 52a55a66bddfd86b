// Strategy spmm_csr_rowgroup: C = A B with A sparse in CSR (M x K), B and C dense row-major (K x N, M x N).
// A group of LANES lanes owns one row of A and a strip of LANES * VEC columns of C at a time (all of C's
// row in one strip when N <= LANES * VEC). The group loads LANES nonzeros (column, value) at once and
// broadcasts each with a shuffle, so a nonzero is read once per strip instead of once per element of C as
// in the naive kernel; for each nonzero every lane reads VEC consecutive elements of B's row (one
// vector load when N is a multiple of VEC and B, C are aligned; otherwise VEC scalar columns spaced LANES
// apart, so any N works). FP32 accumulation in k order, one rounding per element of C.
// Knobs: LANES per row of A, VEC columns per lane, BLOCK threads.
//
// kopt:knob LANES = [4, 8, 16, 32]
// kopt:knob VEC = [1, 2, 4]
// kopt:knob BLOCK = [64, 128, 256]
// kopt:launch grid=(ceil_div({{ARG5}} * LANES, BLOCK)) block=(BLOCK) kernel={{ENTRY}}

#ifndef LANES
#define LANES 8
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef BLOCK
#define BLOCK 128
#endif

static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "LANES is a power of two <= 32");
static_assert(VEC == 1 || VEC == 2 || VEC == 4, "VEC is 1, 2 or 4");
static_assert(BLOCK % 32 == 0, "BLOCK is whole warps");

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ C, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
              const {{T}}* __restrict__ vals, const {{T}}* __restrict__ B, int M, int K, int N, int NNZ) {
  using namespace kopt_strategy;
  (void)K;
  (void)NNZ;
  long long const gid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const row = gid / LANES;
  if (row >= M) return;  // the whole group leaves together
  int const sub = static_cast<int>(gid % LANES);
  unsigned const group_mask = (LANES == 32 ? 0xffffffffu : ((1u << LANES) - 1u))
                              << ((threadIdx.x & 31) / LANES * LANES);
  int const begin = row_ptr[row];
  int const end = row_ptr[row + 1];
  bool const vector = (N % VEC == 0) && aligned_to(B, VEC * sizeof({{T}})) && aligned_to(C, VEC * sizeof({{T}}));
  {{T}}* const c_row = C + row * static_cast<long long>(N);
  for (int c0 = 0; c0 < N; c0 += LANES * VEC) {
    float acc[VEC];
#pragma unroll
    for (int v = 0; v < VEC; ++v) acc[v] = 0.0f;
    int const vcol = c0 + sub * VEC;  // vector path: columns vcol .. vcol + VEC - 1
    for (int kb = begin; kb < end; kb += LANES) {
      int const k = kb + sub;
      int const my_col = k < end ? col_idx[k] : 0;
      float const my_val = k < end ? to_float(vals[k]) : 0.0f;
      int const here = min(LANES, end - kb);
#pragma unroll 4
      for (int t = 0; t < here; ++t) {
        int const kc = __shfl_sync(group_mask, my_col, t, LANES);
        float const kv = __shfl_sync(group_mask, my_val, t, LANES);
        const {{T}}* const b_row = B + static_cast<long long>(kc) * N;
        if (vector) {
          if (vcol < N) {
            Pack<{{T}}, VEC> const p = load_pack<{{T}}, VEC>(b_row + vcol);
#pragma unroll
            for (int v = 0; v < VEC; ++v) acc[v] += kv * to_float(p.v[v]);
          }
        } else {
#pragma unroll
          for (int v = 0; v < VEC; ++v) {
            int const col = c0 + sub + v * LANES;
            if (col < N) acc[v] += kv * to_float(b_row[col]);
          }
        }
      }
    }
    if (vector) {
      if (vcol < N) {
        Pack<{{T}}, VEC> p;
#pragma unroll
        for (int v = 0; v < VEC; ++v) p.v[v] = from_float<{{T}}>(acc[v]);
        store_pack<{{T}}, VEC>(c_row + vcol, p);
      }
    } else {
#pragma unroll
      for (int v = 0; v < VEC; ++v) {
        int const col = c0 + sub + v * LANES;
        if (col < N) c_row[col] = from_float<{{T}}>(acc[v]);
      }
    }
  }
}
