// Strategy flash_attention_simt (family attention, kernel mode, FP32 and BF16 on CUDA cores).
// O = softmax(Q K^T / sqrt(D)) V per (batch * head) slice, Q, K, V, O laid out [BH][S][D]; causal when
// the task's parameter `causal` is 1 (query i sees keys j <= i).
// FlashAttention-2 on CUDA cores: a block owns BQ query rows of one slice (grid = query tiles x BH) and
// walks the keys in tiles of BK = 16 * TN, never writing the S x S scores. Per key tile: the K and V
// tiles are staged in shared memory (converted to float; Q was staged once), each thread computes a
// TM x TN block of scores from float4 shared-memory reads (its TM rows, keys tx + 16 * j), the online
// softmax updates the running row maximum (16-lane shuffles; the 16 threads of a row group share rows)
// and rescales the row's partial sum and output accumulators, the probabilities go through shared
// memory, and each thread accumulates P V for its TM rows x D / 16 columns in registers. Scores use
// exp2 with the scale folded into log2(e) / sqrt(D). Causal: key tiles past the block's last row are
// skipped, the diagonal tile is masked, and the heaviest query tiles are scheduled first.
// D: one __global__ entry dispatches (warp-uniformly, on the run-time D) to a body compiled for a
// head dimension of 64 or 128; D < 64 or 64 < D < 128 run on the next larger body with zero-filled
// columns, so any D <= 128 is correct (like the reference, D > 128 writes nothing). Dynamic shared
// memory is sized by the launch line for the body that D selects.
// Edges: query and key rows past S are zero-filled and masked (keys) or not written (queries); 16-byte
// global loads and stores need D a multiple of the vector and aligned pointers, else element access.
// Knobs: BQ (query rows per block), TM (rows per thread), TN (keys per thread: BK = 16 * TN),
// FAST (--use_fast_math).
//
// kopt:knob BQ = [32, 64, 128]
// kopt:knob TM = [2, 4, 8]
// kopt:knob TN = [2, 4]
// kopt:flag FAST = ["", "--use_fast_math"]
// 64 to 512 threads per block, (BQ / TM) row groups of 16 threads:
// kopt:constraint BQ % TM == 0 && (BQ / TM) * 16 >= 64 && (BQ / TM) * 16 <= 512
// Dynamic shared memory (floats: Q and K tiles with rows padded by 4, V tile, P tile) at most 227 KiB:
// kopt:constraint ((BQ + 16 * TN) * (({{ARG6}} <= 64 ? 64 : 128) + 4) + 16 * TN * ({{ARG6}} <= 64 ? 64 : 128) + BQ * (16 * TN + 4)) * 4 <= 232448
// kopt:launch grid=(ceil_div({{ARG5}}, BQ), {{ARG4}}) block=((BQ / TM) * 16) shared=(((BQ + 16 * TN) * (({{ARG6}} <= 64 ? 64 : 128) + 4) + 16 * TN * ({{ARG6}} <= 64 ? 64 : 128) + BQ * (16 * TN + 4)) * 4) kernel={{ENTRY}}

#ifndef BQ
#define BQ 64
#endif
#ifndef TM
#define TM 4
#endif
#ifndef TN
#define TN 4
#endif

// kopt:include attention_options.cuh

namespace kopt_attention {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

constexpr unsigned kFull = 0xffffffffu;
constexpr bool kCausal = {{causal}};

__device__ __forceinline__ float negative_infinity() {
  return -__int_as_float(0x7f800000);
}

// Copies rows [row0, row0 + Rows) of a [S][D] slice into dst[Rows][Ld] as float, columns [0, DM):
// zeros past S or past D. `vec`: D is a multiple of the 16-byte vector and the slice is aligned.
template <typename T, int DM, int Rows, int Ld, int Threads>
__device__ __forceinline__ void load_tile(float* __restrict__ dst, const T* __restrict__ src, int row0, int S,
                                          int D, bool vec) {
  int const tid = static_cast<int>(threadIdx.x);
  if (vec) {
    constexpr int VE = 16 / static_cast<int>(sizeof(T));
    constexpr int kChunks = DM / VE;  // per row
    for (int c = tid; c < Rows * kChunks; c += Threads) {
      int const r = c / kChunks;
      int const col = (c % kChunks) * VE;
      float vals[VE];
      if (row0 + r < S && col < D) {
        auto const pack = kopt_strategy::load_pack<T, VE>(src + static_cast<long long>(row0 + r) * D + col);
#pragma unroll
        for (int e = 0; e < VE; ++e) vals[e] = to_float(pack.v[e]);
      } else {
#pragma unroll
        for (int e = 0; e < VE; ++e) vals[e] = 0.0f;
      }
#pragma unroll
      for (int e = 0; e < VE; e += 4)
        *reinterpret_cast<float4*>(dst + r * Ld + col + e) =
            make_float4(vals[e], vals[e + 1], vals[e + 2], vals[e + 3]);
    }
  } else {
    for (int c = tid; c < Rows * DM; c += Threads) {
      int const r = c / DM;
      int const col = c % DM;
      dst[r * Ld + col] =
          (row0 + r < S && col < D) ? to_float(src[static_cast<long long>(row0 + r) * D + col]) : 0.0f;
    }
  }
}

template <typename T, int DM, int Bq, int Tm, int Tn>
__device__ __forceinline__ void attention_block(T* __restrict__ O, const T* __restrict__ Q,
                                                const T* __restrict__ K, const T* __restrict__ V, int S,
                                                int D, int qtile, float* smem KOPT_KEYS_PARAM KOPT_SCALE_PARAM) {
  constexpr int BK = 16 * Tn;
  constexpr int kThreads = (Bq / Tm) * 16;
  constexpr int LDQ = DM + 4;  // Q and K rows: 16-byte aligned, conflict-free float4 reads of 8 rows
  constexpr int LDP = BK + 4;
  constexpr int kChunksD = DM / 64;  // float4 column chunks per thread in P V: columns 4 * (tx + 16 c)
  float* q_s = smem;                 // [Bq][LDQ]
  float* k_s = q_s + Bq * LDQ;       // [BK][LDQ]
  float* v_s = k_s + BK * LDQ;       // [BK][DM]
  float* p_s = v_s + BK * DM;        // [Bq][LDP]

  int const tid = static_cast<int>(threadIdx.x);
  int const ty = tid / 16;  // row group: rows ty * Tm + i
  int const tx = tid % 16;  // keys tx + 16 j; output columns 4 * (tx + 16 c) + e
  int const q0 = qtile * Bq;
  constexpr int VE = 16 / static_cast<int>(sizeof(T));
  bool const vec = D % VE == 0 && kopt_strategy::aligned_to(Q, 16) && kopt_strategy::aligned_to(K, 16) &&
                   kopt_strategy::aligned_to(V, 16);
  float const scale_log2 = KOPT_SCALE_LOG2;

  load_tile<T, DM, Bq, LDQ, kThreads>(q_s, Q, q0, S, D, vec);

  float m[Tm];
  float l[Tm];  // this thread's part of the row sum (its keys); the 16 parts are added at the end
  float o[Tm][kChunksD][4];
#pragma unroll
  for (int i = 0; i < Tm; ++i) {
    m[i] = negative_infinity();
    l[i] = 0.0f;
#pragma unroll
    for (int c = 0; c < kChunksD; ++c) {
#pragma unroll
      for (int e = 0; e < 4; ++e) o[i][c][e] = 0.0f;
    }
  }

  int const key_end = kCausal ? min(KOPT_KEYS, q0 + Bq) : KOPT_KEYS;  // keys any row of the block can see
  for (int k0 = 0; k0 < key_end; k0 += BK) {
    load_tile<T, DM, BK, LDQ, kThreads>(k_s, K, k0, KOPT_KEYS, D, vec);
    load_tile<T, DM, BK, DM, kThreads>(v_s, V, k0, KOPT_KEYS, D, vec);
    __syncthreads();

    // Scores: s[i][j] = Q[ty * Tm + i] . K[tx + 16 j].
    float s[Tm][Tn];
#pragma unroll
    for (int i = 0; i < Tm; ++i) {
#pragma unroll
      for (int j = 0; j < Tn; ++j) s[i][j] = 0.0f;
    }
#pragma unroll 4
    for (int d = 0; d < DM; d += 4) {
      float4 qv[Tm];
      float4 kv[Tn];
#pragma unroll
      for (int i = 0; i < Tm; ++i) qv[i] = *reinterpret_cast<const float4*>(q_s + (ty * Tm + i) * LDQ + d);
#pragma unroll
      for (int j = 0; j < Tn; ++j) kv[j] = *reinterpret_cast<const float4*>(k_s + (tx + 16 * j) * LDQ + d);
#pragma unroll
      for (int i = 0; i < Tm; ++i) {
#pragma unroll
        for (int j = 0; j < Tn; ++j) {
          s[i][j] = fmaf(qv[i].x, kv[j].x, s[i][j]);
          s[i][j] = fmaf(qv[i].y, kv[j].y, s[i][j]);
          s[i][j] = fmaf(qv[i].z, kv[j].z, s[i][j]);
          s[i][j] = fmaf(qv[i].w, kv[j].w, s[i][j]);
        }
      }
    }

    // Online softmax (log2 domain): mask, new row maximum, rescale, probabilities to shared memory.
#pragma unroll
    for (int i = 0; i < Tm; ++i) {
      int const qi = q0 + ty * Tm + i;
      float tile_max = negative_infinity();
#pragma unroll
      for (int j = 0; j < Tn; ++j) {
        int const kj = k0 + tx + 16 * j;
        bool const visible = kj < KOPT_KEYS && (!kCausal || kj <= qi);
        s[i][j] = visible ? s[i][j] * scale_log2 : negative_infinity();
        tile_max = fmaxf(tile_max, s[i][j]);
      }
#pragma unroll
      for (int offset = 8; offset > 0; offset >>= 1)
        tile_max = fmaxf(tile_max, __shfl_xor_sync(kFull, tile_max, offset));
      float const m_new = fmaxf(m[i], tile_max);
      float const m_use = m_new == negative_infinity() ? 0.0f : m_new;  // no (-inf) - (-inf)
      float const alpha = exp2f(m[i] - m_use);
      m[i] = m_new;
      float sum = 0.0f;
#pragma unroll
      for (int j = 0; j < Tn; ++j) {
        float const p = exp2f(s[i][j] - m_use);
        sum += p;
        p_s[(ty * Tm + i) * LDP + tx + 16 * j] = p;
      }
      l[i] = l[i] * alpha + sum;
#pragma unroll
      for (int c = 0; c < kChunksD; ++c) {
#pragma unroll
        for (int e = 0; e < 4; ++e) o[i][c][e] *= alpha;
      }
    }
    __syncthreads();

    // O[rows][columns] += P[rows][tile] V[tile][columns].
#pragma unroll 2
    for (int j = 0; j < BK; j += 4) {
      float4 pv[Tm];
#pragma unroll
      for (int i = 0; i < Tm; ++i) pv[i] = *reinterpret_cast<const float4*>(p_s + (ty * Tm + i) * LDP + j);
#pragma unroll
      for (int c = 0; c < kChunksD; ++c) {
        float4 vv[4];
#pragma unroll
        for (int u = 0; u < 4; ++u)
          vv[u] = *reinterpret_cast<const float4*>(v_s + (j + u) * DM + 4 * (tx + 16 * c));
#pragma unroll
        for (int i = 0; i < Tm; ++i) {
          float const p[4] = {pv[i].x, pv[i].y, pv[i].z, pv[i].w};
#pragma unroll
          for (int u = 0; u < 4; ++u) {
            o[i][c][0] = fmaf(p[u], vv[u].x, o[i][c][0]);
            o[i][c][1] = fmaf(p[u], vv[u].y, o[i][c][1]);
            o[i][c][2] = fmaf(p[u], vv[u].z, o[i][c][2]);
            o[i][c][3] = fmaf(p[u], vv[u].w, o[i][c][3]);
          }
        }
      }
    }
    __syncthreads();  // the next tile overwrites K, V and P
  }

  // Epilogue: the row sum over the 16 threads of the row group, then O = acc / sum.
  bool const vec_out = D % 4 == 0 && kopt_strategy::aligned_to(O, 4 * sizeof(T));
#pragma unroll
  for (int i = 0; i < Tm; ++i) {
    float total = l[i];
#pragma unroll
    for (int offset = 8; offset > 0; offset >>= 1) total += __shfl_xor_sync(kFull, total, offset);
    int const qi = q0 + ty * Tm + i;
    if (qi >= S) continue;
    float const inverse = 1.0f / total;
    T* row = O + static_cast<long long>(qi) * D;
#pragma unroll
    for (int c = 0; c < kChunksD; ++c) {
      int const col = 4 * (tx + 16 * c);
      if (vec_out && col < D) {
        kopt_strategy::Pack<T, 4> pack;
#pragma unroll
        for (int e = 0; e < 4; ++e) pack.v[e] = from_float<T>(o[i][c][e] * inverse);
        kopt_strategy::store_pack<T, 4>(row + col, pack);
      } else if (!vec_out) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          if (col + e < D) row[col + e] = from_float<T>(o[i][c][e] * inverse);
        }
      }
    }
  }
}

}  // namespace kopt_attention

extern "C" __global__ void __launch_bounds__((BQ / TM) * 16)
    {{ENTRY}}({{T}}* __restrict__ O, const {{T}}* __restrict__ Q, const {{T}}* __restrict__ K,
             const {{T}}* __restrict__ V, int BH, int S, int D KOPT_KEYS_PARAM KOPT_SCALE_PARAM) {
  using namespace kopt_attention;
  extern __shared__ float4 kopt_attention_smem[];
  int const bh = static_cast<int>(blockIdx.y);
  if (S <= 0 || D <= 0 || D > 128 || bh >= BH) return;
  // Causal: the last query tiles see the most keys; start them first.
  int const qtile = kCausal ? static_cast<int>(gridDim.x - 1u - blockIdx.x) : static_cast<int>(blockIdx.x);
  long long const offset = static_cast<long long>(bh) * S * D;
  float* smem = reinterpret_cast<float*>(kopt_attention_smem);
  if (D <= 64) {
    attention_block<{{T}}, 64, BQ, TM, TN>(O + offset, Q + offset, K + KOPT_KV_OFFSET, V + KOPT_KV_OFFSET, S, D, qtile, smem KOPT_KEYS_ARG KOPT_SCALE_ARG);
  } else {
    attention_block<{{T}}, 128, BQ, TM, TN>(O + offset, Q + offset, K + KOPT_KV_OFFSET, V + KOPT_KV_OFFSET, S, D, qtile,
                                            smem KOPT_KEYS_ARG KOPT_SCALE_ARG);
  }
}
