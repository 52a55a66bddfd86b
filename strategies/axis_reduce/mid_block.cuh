// The block of a mid_* grid (spliced into mid_reduce_split_rows and mid_argext_split_rows by
// `// kopt:include mid_block.cuh`, after the knob STRIP): the grid is (batch x strips) x pieces, block (x, y)
// owning the strip of STRIP columns x % strips of slab x / strips (a batch's rows x cols matrix) and the y-th of
// gridDim.y equal stretches of that slab's rows.
struct MidBlock {
  long long slab;    // which rows x cols matrix of the batch
  long long strip;   // the strip's index over every slab: its ticket and its partials' place
  long long c0;      // the strip's first column in its slab
  unsigned int piece;  // which stretch of rows
  long long r0, r1;  // the stretch: rows [r0, r1) of the slab
};

// Block blockIdx.x's slab and strip; false for a block past the batch (an empty batch, whose grid is one
// block), which then has nothing to do.
__device__ __forceinline__ bool mid_block(int batch, int cols, MidBlock& b) {
  unsigned int const strips = cols > 0 ? (static_cast<unsigned int>(cols) + STRIP - 1u) / STRIP : 1u;
  unsigned int const slab = blockIdx.x / strips;  // 32-bit division, once per block
  if (slab >= static_cast<unsigned int>(batch)) return false;
  b.slab = slab;
  b.strip = blockIdx.x;
  b.c0 = static_cast<long long>(blockIdx.x - slab * strips) * STRIP;
  return true;
}

// Block blockIdx.y's stretch of its slab's rows: the y-th of gridDim.y equal ones.
__device__ __forceinline__ void mid_rows(int rows, MidBlock& b) {
  unsigned int const pieces = gridDim.y;
  b.piece = blockIdx.y;
  long long const chunk = (static_cast<unsigned int>(rows) + pieces - 1u) / pieces;  // 32-bit division
  b.r0 = b.piece * chunk;
  b.r1 = b.r0 + chunk < rows ? b.r0 + chunk : rows;
}
