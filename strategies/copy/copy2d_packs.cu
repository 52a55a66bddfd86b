// Strategy copy2d_packs, copy2d family (kernel mode): a pitched 2-D copy, as cudaMemcpy2D does,
// out[r * ld_out + c] = in[r * ld_in + c] for r < rows, c < cols (strides in elements, ld_out >= cols,
// ld_in >= cols): a column slice made contiguous (x[:, a:b].contiguous()), a block written into a wider
// matrix (out[:, a:b] = x, torch.cat along columns), or any sub-matrix to another. Elements of out between
// cols and ld_out are left as they are. The copy moves words of the widest size, 16, 8 or 4 bytes, that
// divides cols, both strides (when there is more than one row) and both base addresses (one element
// otherwise), so every row starts on a word boundary: a 16-byte aligned slice moves 128-bit words, one
// whose strides are multiples of 2 elements but not of the pack moves 8-byte (FP32) or 4-byte (BF16)
// words. The rows x words of the copy are one flat range walked grid-stride, consecutive threads on
// consecutive words: a warp reads and writes 32 contiguous words of a row (512 bytes of 16-byte words),
// and narrow rows (a few words each) are packed side by side into a warp instead of leaving most lanes
// of a row's warp idle. Each thread keeps its
// position as (row, word) and its two offsets, advanced by the grid's stride with one carry (no
// division after the first), and issues UNROLL loads before any store. Bits are copied unchanged (no
// conversion), so the result is exact; 64-bit offsets.
//
// Knobs: BLOCK threads per block; UNROLL words in flight per thread; GRID blocks per SM of a 132-SM H200
// (0: one pass, as many blocks as the work needs, counted at 4 elements a word); LOAD_HINT 0 loads
// ld.global.nc, 1 ld.global.cs (streaming, evict-first: the source is read once); STORE_HINT 0 plain
// stores, 1 st.global.cs (streaming: the copy's lines do not stay in L2 for nothing).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [0, 2, 4, 8] resources=none
// kopt:knob LOAD_HINT = [0, 1] resources=none
// kopt:knob STORE_HINT = [0, 1] resources=none
// Resident blocks of BLOCK threads: at most 2048 threads per SM.
// kopt:constraint GRID == 0 || BLOCK * GRID <= 2048
// 1024 threads leave a thread 64 registers: at most four 16-byte words in flight (eight spill).
// kopt:constraint BLOCK * UNROLL <= 4096
// kopt:launch grid=(GRID == 0 ? max(1, ceil_div(max(0, {{ARG2}}) * ceil_div(max(0, {{ARG3}}), 4), BLOCK * UNROLL)) : max(1, min(ceil_div(max(0, {{ARG2}}) * ceil_div(max(0, {{ARG3}}), 4), BLOCK * UNROLL), 132 * GRID))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 0
#endif
#ifndef LOAD_HINT
#define LOAD_HINT 1
#endif
#ifndef STORE_HINT
#define STORE_HINT 1
#endif

namespace copy2d_packs {

// One word (W: uint4, uint2, unsigned int, or unsigned short for one BF16 element), as the hints say.
template <typename W>
__device__ __forceinline__ W load_word(W const* p) {
#if LOAD_HINT
  return __ldcs(p);
#else
  return __ldg(p);
#endif
}
template <typename W>
__device__ __forceinline__ void store_word(W* p, W v) {
#if STORE_HINT
  __stcs(p, v);
#else
  *p = v;
#endif
}

// A position in the copy: row r, word c of the row (c < width < 2^31, so c + a step's dc fits 32 bits
// unsigned), and the word's offsets in both matrices.
struct Cursor {
  long long r;
  unsigned c;
  long long in, out;
};

// Copies rows x width words W, row strides ld_out and ld_in in words. A step of the whole grid (threads
// words) moves a position by dr rows and dc words, plus one row when c passes the row's end (dc < width:
// one carry at most). The loads of a step walk one cursor and the stores walk a copy of it, so no offset
// is kept per word in flight.
template <typename W>
__device__ __forceinline__ void copy_words(W* __restrict__ out, W const* __restrict__ in, long long rows,
                                           long long width, long long ld_out, long long ld_in) {
  long long const threads = static_cast<long long>(gridDim.x) * BLOCK;
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  unsigned const words = static_cast<unsigned>(width);
  long long const dr = threads / width;
  unsigned const dc = static_cast<unsigned>(threads % width);
  long long const step_in = dr * ld_in + dc;
  long long const step_out = dr * ld_out + dc;
  long long const wrap_in = ld_in - width;  // the carry: from past a row's end to the next row's start
  long long const wrap_out = ld_out - width;
  auto const advance = [&](Cursor& p) {
    p.r += dr;
    p.c += dc;
    p.in += step_in;
    p.out += step_out;
    if (p.c >= words) {
      ++p.r;
      p.c -= words;
      p.in += wrap_in;
      p.out += wrap_out;
    }
  };
  long long const r0 = tid / width;
  unsigned const c0 = static_cast<unsigned>(tid % width);
  Cursor load{r0, c0, r0 * ld_in + c0, r0 * ld_out + c0};
  while (load.r < rows) {
    Cursor store = load;
    W v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      if (load.r < rows) v[u] = load_word(in + load.in);
      advance(load);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      if (store.r < rows) store_word(out + store.out, v[u]);
      advance(store);
    }
  }
}

// The largest word (16, 8 or 4 bytes; the element size otherwise) every row boundary of both matrices is
// aligned to: it divides the row's bytes, the two strides' bytes (only when a second row exists) and both
// base addresses.
template <typename T>
__device__ __forceinline__ unsigned word_bytes(T const* out, T const* in, long long rows, long long cols,
                                               long long ld_out, long long ld_in) {
  unsigned long long bits = cols * sizeof(T) | reinterpret_cast<unsigned long long>(out) |
                            reinterpret_cast<unsigned long long>(in);
  if (rows > 1) bits |= (ld_out * sizeof(T)) | (ld_in * sizeof(T));
  unsigned bytes = 16;
  while (bytes > sizeof(T) && (bits & (bytes - 1ull)) != 0ull) bytes >>= 1;
  return bytes;
}

template <typename T>
__device__ __forceinline__ void run(T* __restrict__ out, T const* __restrict__ in, int rows, int cols,
                                    int ld_out, int ld_in) {
  if (rows <= 0 || cols <= 0) return;
  unsigned const bytes = word_bytes(out, in, rows, cols, ld_out, ld_in);
  long long const per = bytes / sizeof(T);  // elements per word
  long long const width = cols / per;
  long long const wo = ld_out / per;
  long long const wi = ld_in / per;
  // The branch is uniform: every thread computes the same word size.
  if (bytes == 16) {
    copy_words(reinterpret_cast<uint4*>(out), reinterpret_cast<uint4 const*>(in), rows, width, wo, wi);
  } else if (bytes == 8) {
    copy_words(reinterpret_cast<uint2*>(out), reinterpret_cast<uint2 const*>(in), rows, width, wo, wi);
  } else if (bytes == 4) {
    copy_words(reinterpret_cast<unsigned*>(out), reinterpret_cast<unsigned const*>(in), rows, width, wo, wi);
  } else if constexpr (sizeof(T) == 2) {  // one BF16 element (an FP32 element is a 4-byte word)
    copy_words(reinterpret_cast<unsigned short*>(out), reinterpret_cast<unsigned short const*>(in), rows,
               width, wo, wi);
  }
}

}  // namespace copy2d_packs

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* out, const {{T}}* in, int rows, int cols, int ld_out, int ld_in) {
  copy2d_packs::run<{{T}}>(out, in, rows, cols, ld_out, ld_in);
}
