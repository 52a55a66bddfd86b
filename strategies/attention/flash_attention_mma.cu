// Strategy flash_attention_mma (family attention, BF16 only, kernel mode, sm_80+).
// O = softmax(Q K^T / sqrt(D)) V per (batch * head) slice, Q, K, V, O laid out [BH][S][D]; causal when
// the task's parameter `causal` is 1 (query i sees keys j <= i).
// FlashAttention-2 on the tensor cores: a block of WARPS warps owns BQ = 16 * WARPS query rows of one
// slice (grid = query tiles x BH), each warp 16 rows. K and V are walked in tiles of BK keys through a
// STAGES-deep ring of shared-memory buffers filled with 16-byte cp.async copies (the Q tile travels with
// the first), so the next tiles load while one is used. Per tile, each warp computes its 16 x BK scores
// with mma.sync m16n8k16 (BF16 in, FP32 accumulators; Q fragments from ldmatrix, kept in registers when
// QREG = 1, K fragments from ldmatrix), runs the online softmax on the accumulators (row maximum over the
// 4 lanes of a quad, exp2 with the scale folded into log2(e) / sqrt(D), rescaling of the running sum and
// the output), rounds P to BF16 straight from the score accumulators into A fragments (FlashAttention
// does the same; the task's BF16 tolerance allows it) and accumulates P V with mma.sync on
// ldmatrix.trans fragments of V. Rows are padded by 8 elements: conflict-free ldmatrix.
// Causal: key tiles past the block's last row are not loaded, a warp skips the tiles past its own last
// row, the diagonal is masked, and the heaviest query tiles are scheduled first.
// D: one __global__ entry dispatches (uniformly, on the run-time D) to a body compiled for a head
// dimension of 64 or 128; other D <= 128 run on the next larger body with zero-filled columns (like the
// reference, D > 128 writes nothing). Edges: rows past S are zero-filled (cp.async src-size 0) and
// masked; when D is not a multiple of 8 or a pointer is not 16-byte aligned, tiles are copied element
// by element instead. Outputs are stored as BF16 pairs when aligned, else one by one.
// Knobs: WARPS (4 or 8 warps: 64 or 128 query rows), BK (keys per tile), STAGES (buffers in the ring),
// QREG (Q fragments held in registers across key tiles, or re-read from shared memory).
//
// kopt:knob WARPS = [4, 8]
// kopt:knob BK = [32, 64, 128]
// kopt:knob STAGES = [2, 3]
// kopt:knob QREG = [0, 1] resources=none
// Dynamic shared memory (BF16: Q tile and STAGES K and V tiles, rows padded by 8) at most 227 KiB:
// kopt:constraint (16 * WARPS + 2 * STAGES * BK) * (({{ARG6}} <= 64 ? 64 : 128) + 8) * 2 <= 232448
// kopt:launch grid=(ceil_div({{ARG5}}, 16 * WARPS), {{ARG4}}) block=(WARPS * 32) shared=((16 * WARPS + 2 * STAGES * BK) * (({{ARG6}} <= 64 ? 64 : 128) + 8) * 2) kernel={{ENTRY}}

#ifndef WARPS
#define WARPS 4
#endif
#ifndef BK
#define BK 64
#endif
#ifndef STAGES
#define STAGES 2
#endif
#ifndef QREG
#define QREG 1
#endif

// kopt:include attention_options.cuh

namespace kopt_attention_mma {

using bf16 = __nv_bfloat16;

constexpr unsigned kFull = 0xffffffffu;
constexpr bool kCausal = {{causal}};

__device__ __forceinline__ float negative_infinity() {
  return -__int_as_float(0x7f800000);
}

__device__ __forceinline__ unsigned smem_address(void const* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// 16 bytes global -> shared; src_bytes 0 fills the 16 bytes with zeros (src must still be a valid address).
__device__ __forceinline__ void cp_async_16(void* dst, void const* src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_address(dst)), "l"(src),
               "r"(src_bytes)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], void const* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(p))
               : "memory");
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], void const* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(p))
               : "memory");
}

// c += a (16 x 16, row) * b (16 x 8, col), BF16 in, FP32 accumulators.
__device__ __forceinline__ void mma_bf16(float (&c)[4], unsigned const (&a)[4], unsigned b0, unsigned b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Two floats as a BF16 pair in one register (lo in the low half: the lower column index).
__device__ __forceinline__ unsigned pack_bf16(float lo, float hi) {
  __nv_bfloat162 const v = __floats2bfloat162_rn(lo, hi);
  return (static_cast<unsigned>(__bfloat16_as_ushort(v.y)) << 16) | __bfloat16_as_ushort(v.x);
}

// Rows [row0, row0 + Rows) of a [S][D] slice into dst[Rows][DM + 8], columns [0, DM): zeros past S or
// past D. `vec`: asynchronous 16-byte copies (D % 8 == 0, 16-byte aligned slice); else element copies.
template <int DM, int Rows, int Threads>
__device__ __forceinline__ void load_tile(bf16* dst, const bf16* __restrict__ src, int row0, int S, int D,
                                          bool vec) {
  constexpr int LD = DM + 8;
  constexpr int kChunks = DM / 8;  // 16-byte chunks per row
  int const tid = static_cast<int>(threadIdx.x);
  if (vec) {
#pragma unroll 4
    for (int c = tid; c < Rows * kChunks; c += Threads) {
      int const r = c / kChunks;
      int const col = (c % kChunks) * 8;
      bool const ok = row0 + r < S && col < D;
      const bf16* from = ok ? src + static_cast<long long>(row0 + r) * D + col : src;
      cp_async_16(dst + r * LD + col, from, ok ? 16 : 0);
    }
  } else {
    bf16 const zero = __float2bfloat16_rn(0.0f);
    for (int c = tid; c < Rows * DM; c += Threads) {
      int const r = c / DM;
      int const col = c % DM;
      dst[r * LD + col] = (row0 + r < S && col < D) ? src[static_cast<long long>(row0 + r) * D + col] : zero;
    }
  }
}

template <int DM, int Warps, int Bk, int Stages, bool QReg>
__device__ __forceinline__ void attention_block(bf16* __restrict__ O, const bf16* __restrict__ Q,
                                                const bf16* __restrict__ K, const bf16* __restrict__ V, int S,
                                                int D, int qtile, bf16* smem KOPT_KEYS_PARAM KOPT_SCALE_PARAM) {
  constexpr int BQ = 16 * Warps;
  constexpr int kThreads = 32 * Warps;
  constexpr int LD = DM + 8;
  constexpr int KS = DM / 16;          // k-steps over D
  constexpr int NS = Bk / 8;           // score n-tiles (8 keys each)
  constexpr int NO = DM / 8;           // output n-tiles (8 columns each)
  bf16* q_s = smem;                    // [BQ][LD]
  bf16* k_s = q_s + BQ * LD;           // [Stages][Bk][LD]
  bf16* v_s = k_s + Stages * Bk * LD;  // [Stages][Bk][LD]

  int const tid = static_cast<int>(threadIdx.x);
  int const warp = tid / 32;
  int const lane = tid % 32;
  int const g = lane >> 2;   // fragment row (and row + 8)
  int const t = lane & 3;    // fragment column pair
  int const mi = lane >> 3;  // ldmatrix: which 8 x 8 matrix this lane addresses
  int const rr = lane & 7;   // ... and which row of it
  int const q0 = qtile * BQ;
  int const warp_row0 = q0 + warp * 16;
  bool const vec = D % 8 == 0 && kopt_strategy::aligned_to(Q, 16) && kopt_strategy::aligned_to(K, 16) &&
                   kopt_strategy::aligned_to(V, 16);
  float const scale_log2 = KOPT_SCALE_LOG2;

  int const key_end = kCausal ? min(KOPT_KEYS, q0 + BQ) : KOPT_KEYS;
  int const tiles = (key_end + Bk - 1) / Bk;

  // Prologue: Q with tile 0, then tiles 1 .. Stages - 2, one commit group each.
  load_tile<DM, BQ, kThreads>(q_s, Q, q0, S, D, vec);
#pragma unroll
  for (int s = 0; s < Stages - 1; ++s) {
    if (s < tiles) {
      load_tile<DM, Bk, kThreads>(k_s + s * Bk * LD, K, s * Bk, KOPT_KEYS, D, vec);
      load_tile<DM, Bk, kThreads>(v_s + s * Bk * LD, V, s * Bk, KOPT_KEYS, D, vec);
    }
    cp_async_commit();
  }

  unsigned qf[QReg ? KS : 1][4];
  float o[NO][4];
#pragma unroll
  for (int n = 0; n < NO; ++n) {
#pragma unroll
    for (int e = 0; e < 4; ++e) o[n][e] = 0.0f;
  }
  float m[2] = {negative_infinity(), negative_infinity()};  // rows g and g + 8 of the warp
  float l[2] = {0.0f, 0.0f};                                // this lane's part of the row sums

  // The ldmatrix address of this lane in the warp's Q rows for k-step kk (matrices: rows 0-7 / 8-15,
  // columns 0-7 / 8-15 of the 16 x 16 A tile, in a0..a3 order).
  const bf16* q_lane = q_s + (warp * 16 + rr + (mi & 1) * 8) * LD + (mi >> 1) * 8;

  for (int tile = 0; tile < tiles; ++tile) {
    int const next = tile + Stages - 1;
    if (next < tiles) {
      load_tile<DM, Bk, kThreads>(k_s + (next % Stages) * Bk * LD, K, next * Bk, KOPT_KEYS, D, vec);
      load_tile<DM, Bk, kThreads>(v_s + (next % Stages) * Bk * LD, V, next * Bk, KOPT_KEYS, D, vec);
    }
    cp_async_commit();
    cp_async_wait<Stages - 1>();  // the group of `tile` (and Q) has landed
    __syncthreads();

    if (QReg && tile == 0) {
#pragma unroll
      for (int kk = 0; kk < (QReg ? KS : 1); ++kk) ldmatrix_x4(qf[kk], q_lane + kk * 16);
    }

    int const k0 = tile * Bk;
    if (!kCausal || k0 <= warp_row0 + 15) {  // a warp skips tiles that are wholly above its rows
      const bf16* kt = k_s + (tile % Stages) * Bk * LD;
      const bf16* vt = v_s + (tile % Stages) * Bk * LD;

      // Scores: sc[n] = Q(16 x DM) K(keys n * 8 .. + 8)^T.
      float sc[NS][4];
#pragma unroll
      for (int n = 0; n < NS; ++n) {
#pragma unroll
        for (int e = 0; e < 4; ++e) sc[n][e] = 0.0f;
      }
#pragma unroll
      for (int kk = 0; kk < KS; ++kk) {
        unsigned a[4];
        if (QReg) {
#pragma unroll
          for (int e = 0; e < 4; ++e) a[e] = qf[QReg ? kk : 0][e];
        } else {
          ldmatrix_x4(a, q_lane + kk * 16);
        }
#pragma unroll
        for (int n = 0; n < NS; n += 2) {
          // Matrices: keys n*8.. (d lo, d hi), keys (n+1)*8.. (d lo, d hi) -> b0, b1 of n and n + 1.
          unsigned b[4];
          ldmatrix_x4(b, kt + (n * 8 + (mi >> 1) * 8 + rr) * LD + kk * 16 + (mi & 1) * 8);
          mma_bf16(sc[n], a, b[0], b[1]);
          mma_bf16(sc[n + 1], a, b[2], b[3]);
        }
      }

      // Online softmax on the accumulators: c0, c1 are row g, c2, c3 row g + 8; keys n * 8 + 2t (+1).
      float tile_max[2] = {negative_infinity(), negative_infinity()};
#pragma unroll
      for (int n = 0; n < NS; ++n) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          int const key = k0 + n * 8 + 2 * t + (e & 1);
          int const row = warp_row0 + g + (e >> 1) * 8;
          bool const visible = key < KOPT_KEYS && (!kCausal || key <= row);
          sc[n][e] = visible ? sc[n][e] * scale_log2 : negative_infinity();
          tile_max[e >> 1] = fmaxf(tile_max[e >> 1], sc[n][e]);
        }
      }
      float alpha[2];
      float m_use[2];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        tile_max[h] = fmaxf(tile_max[h], __shfl_xor_sync(kFull, tile_max[h], 1));
        tile_max[h] = fmaxf(tile_max[h], __shfl_xor_sync(kFull, tile_max[h], 2));
        float const m_new = fmaxf(m[h], tile_max[h]);
        m_use[h] = m_new == negative_infinity() ? 0.0f : m_new;  // no (-inf) - (-inf)
        alpha[h] = exp2f(m[h] - m_use[h]);
        m[h] = m_new;
      }
      float sum[2] = {0.0f, 0.0f};
#pragma unroll
      for (int n = 0; n < NS; ++n) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          sc[n][e] = exp2f(sc[n][e] - m_use[e >> 1]);
          sum[e >> 1] += sc[n][e];
        }
      }
#pragma unroll
      for (int h = 0; h < 2; ++h) l[h] = l[h] * alpha[h] + sum[h];
#pragma unroll
      for (int n = 0; n < NO; ++n) {
        o[n][0] *= alpha[0];
        o[n][1] *= alpha[0];
        o[n][2] *= alpha[1];
        o[n][3] *= alpha[1];
      }

      // O += P V: P's A fragment for keys kk * 16 .. + 16 is the accumulators of n-tiles 2kk, 2kk + 1.
#pragma unroll
      for (int kk = 0; kk < Bk / 16; ++kk) {
        unsigned const a[4] = {
            pack_bf16(sc[2 * kk][0], sc[2 * kk][1]), pack_bf16(sc[2 * kk][2], sc[2 * kk][3]),
            pack_bf16(sc[2 * kk + 1][0], sc[2 * kk + 1][1]), pack_bf16(sc[2 * kk + 1][2], sc[2 * kk + 1][3])};
#pragma unroll
        for (int n = 0; n < NO; n += 2) {
          // Matrices (transposed): keys 0-7 / 8-15 of the step, columns n*8.. and (n+1)*8...
          unsigned b[4];
          ldmatrix_x4_trans(b, vt + (kk * 16 + (mi & 1) * 8 + rr) * LD + (n + (mi >> 1)) * 8);
          mma_bf16(o[n], a, b[0], b[1]);
          mma_bf16(o[n + 1], a, b[2], b[3]);
        }
      }
    }
    __syncthreads();  // the next iteration refills the buffer read here
  }
  cp_async_wait<0>();  // nothing is in flight when the block ends (only empty groups remain)

  // Epilogue: row sums over the quad, O = acc / sum, rounded once to BF16.
  bool const pairs = D % 2 == 0 && kopt_strategy::aligned_to(O, 4);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    float total = l[h];
    total += __shfl_xor_sync(kFull, total, 1);
    total += __shfl_xor_sync(kFull, total, 2);
    int const row = warp_row0 + g + h * 8;
    if (row >= S) continue;
    float const inverse = 1.0f / total;
    bf16* out = O + static_cast<long long>(row) * D;
#pragma unroll
    for (int n = 0; n < NO; ++n) {
      int const col = n * 8 + 2 * t;
      float const v0 = o[n][2 * h] * inverse;
      float const v1 = o[n][2 * h + 1] * inverse;
      if (pairs) {
        if (col < D) *reinterpret_cast<__nv_bfloat162*>(out + col) = __floats2bfloat162_rn(v0, v1);
      } else {
        if (col < D) out[col] = __float2bfloat16_rn(v0);
        if (col + 1 < D) out[col + 1] = __float2bfloat16_rn(v1);
      }
    }
  }
}

}  // namespace kopt_attention_mma

extern "C" __global__ void __launch_bounds__(WARPS * 32)
    {{ENTRY}}({{T}}* __restrict__ O, const {{T}}* __restrict__ Q, const {{T}}* __restrict__ K,
             const {{T}}* __restrict__ V, int BH, int S, int D KOPT_KEYS_PARAM KOPT_SCALE_PARAM) {
  using namespace kopt_attention_mma;
  extern __shared__ uint4 kopt_attention_mma_smem[];
  int const bh = static_cast<int>(blockIdx.y);
  if (S <= 0 || D <= 0 || D > 128 || bh >= BH) return;
  // Causal: the last query tiles see the most keys; start them first.
  int const qtile = kCausal ? static_cast<int>(gridDim.x - 1u - blockIdx.x) : static_cast<int>(blockIdx.x);
  long long const offset = static_cast<long long>(bh) * S * D;
  bf16* smem = reinterpret_cast<bf16*>(kopt_attention_mma_smem);
  if (D <= 64) {
    attention_block<64, WARPS, BK, STAGES, QREG != 0>(O + offset, Q + offset, K + KOPT_KV_OFFSET, V + KOPT_KV_OFFSET, S, D,
                                                      qtile, smem KOPT_KEYS_ARG KOPT_SCALE_ARG);
  } else {
    attention_block<128, WARPS, BK, STAGES, QREG != 0>(O + offset, Q + offset, K + KOPT_KV_OFFSET, V + KOPT_KV_OFFSET, S, D,
                                                       qtile, smem KOPT_KEYS_ARG KOPT_SCALE_ARG);
  }
}
