// The column reductions' shared body (spliced into col_reduce_strip, col_reduce_split_rows and
// mid_reduce_split_rows by `// kopt:include col_strip.cuh`, after axis_op.cuh and the knobs STRIP, BLOCK,
// UNROLL). A block owns a strip of STRIP consecutive columns: kLanes = STRIP / kVec threads across it,
// each holding kVec columns (one 16-byte pack of a row: the lanes' loads of one row are contiguous), and
// kRowLanes = BLOCK / kLanes threads down it, thread (ty, tx) taking rows ty, ty + kRowLanes, ... with
// UNROLL independent loads in flight. Each thread keeps kVec FP32 partial columns; the block's partials are
// combined over ty in shared memory by a fixed tree.
//
// A row starts at a 16-byte boundary only when cols is a multiple of kVec (and the matrix is aligned).
// When it is not, the thread's columns are tx, tx + kLanes, ... instead (element loads, still one
// contiguous stretch per row across the lanes), so any cols and any alignment work. 64-bit indices.

static_assert(STRIP % kVec == 0, "a strip is whole 16-byte packs");
constexpr int kLanes = STRIP / kVec;            // threads across the strip
constexpr int kRowLanes = BLOCK / kLanes;       // threads down the strip
static_assert(kLanes >= 1 && kLanes <= BLOCK && BLOCK % kLanes == 0, "the strip fits the block");
static_assert((kRowLanes & (kRowLanes - 1)) == 0, "a power-of-two number of row lanes (the tree)");
// Rows in flight per thread on the element path: as many loaded registers as the 128-bit path's UNROLL.
constexpr int kScalarUnroll = UNROLL * 4 / kVec > 0 ? UNROLL * 4 / kVec : 1;

// The block's partial columns: slot e * kLanes + tx holds the thread tx's e-th column (conflict-free).
using StripScratch = float[kRowLanes][STRIP];

// The matrix column of slot (tx, e) of the strip starting at c0.
__device__ __forceinline__ long long strip_column(long long c0, int tx, int e, bool vec) {
  return vec ? c0 + static_cast<long long>(tx) * kVec + e : c0 + tx + static_cast<long long>(e) * kLanes;
}

// Folds rows [r0, r1) of this thread's columns of the strip starting at column c0 into acc.
__device__ __forceinline__ void strip_accumulate(float (&acc)[kVec], T const* __restrict__ in, long long r0,
                                                 long long r1, long long cols, long long c0, bool vec, int tx,
                                                 int ty, unsigned long long policy) {
  long long const step = static_cast<long long>(kRowLanes) * cols;  // elements between a thread's rows
  long long r = r0 + ty;
  if (vec) {
    long long const c = strip_column(c0, tx, 0, true);
    if (c >= cols) return;  // the whole pack is past the last column (cols is a multiple of kVec)
    T const* p = in + r * cols + c;
#pragma unroll 1
    for (; r + (UNROLL - 1) * kRowLanes < r1; r += UNROLL * kRowLanes, p += UNROLL * step) {
      uint4 v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = load16(p + u * step, policy);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
        for (int e = 0; e < kVec; ++e) acc[e] = Op::combine(acc[e], pack_value(v[u], e));
      }
    }
    if (UNROLL > 1 && r < r1) {  // at most UNROLL - 1 rows left: one predicated round
      uint4 v[UNROLL > 1 ? UNROLL - 1 : 1];
#pragma unroll
      for (int u = 0; u < UNROLL - 1; ++u) {
        if (r + u * kRowLanes < r1) v[u] = load16(p + u * step, policy);
      }
#pragma unroll
      for (int u = 0; u < UNROLL - 1; ++u) {
        if (r + u * kRowLanes < r1) {
#pragma unroll
          for (int e = 0; e < kVec; ++e) acc[e] = Op::combine(acc[e], pack_value(v[u], e));
        }
      }
    }
    return;
  }
  bool live[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) live[e] = strip_column(c0, tx, e, false) < cols;
  if (!live[0]) return;
  T const* p = in + r * cols + strip_column(c0, tx, 0, false);
#pragma unroll 1
  for (; r + (kScalarUnroll - 1) * kRowLanes < r1; r += kScalarUnroll * kRowLanes, p += kScalarUnroll * step) {
    float v[kScalarUnroll][kVec];
#pragma unroll
    for (int u = 0; u < kScalarUnroll; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e) v[u][e] = live[e] ? load1(p + u * step + e * kLanes) : Op::identity();
    }
#pragma unroll
    for (int u = 0; u < kScalarUnroll; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e) acc[e] = Op::combine(acc[e], v[u][e]);
    }
  }
#pragma unroll 1
  for (; r < r1; r += kRowLanes, p += step) {
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      if (live[e]) acc[e] = Op::combine(acc[e], load1(p + e * kLanes));
    }
  }
}

// Combines acc over the block's row lanes by a fixed tree in shared memory; the threads ty == 0 end with
// the strip's values. Every thread of the block calls it; it ends with a barrier, so the scratch may be
// reused.
__device__ __forceinline__ void strip_combine(float (&acc)[kVec], StripScratch& scratch, int tx, int ty) {
#pragma unroll
  for (int e = 0; e < kVec; ++e) scratch[ty][e * kLanes + tx] = acc[e];
  __syncthreads();
#pragma unroll 1
  for (int stride = kRowLanes / 2; stride > 0; stride >>= 1) {
    if (ty < stride) {
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        acc[e] = Op::combine(acc[e], scratch[ty + stride][e * kLanes + tx]);
        scratch[ty][e * kLanes + tx] = acc[e];
      }
    }
    __syncthreads();
  }
}

// The threads ty == 0 write their columns' values, finished over `rows` values and rounded once to T.
__device__ __forceinline__ void strip_store(T* __restrict__ out, float const (&acc)[kVec], int rows, int cols,
                                            long long c0, bool vec, int tx, int ty) {
  if (ty != 0) return;
#pragma unroll
  for (int e = 0; e < kVec; ++e) {
    long long const c = strip_column(c0, tx, e, vec);
    if (c < cols) out[c] = kopt_strategy::from_float<T>(Op::finish(acc[e], static_cast<float>(rows), rows, cols));
  }
}
