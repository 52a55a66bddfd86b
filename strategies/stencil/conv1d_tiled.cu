// Strategy conv1d_tiled: "same"-size 1D cross-correlation with zero padding,
//   out[i] = sum_{k<K} w[k] * in[i + k - K/2],
// for any runtime K. A block of BLOCK threads owns BLOCK*OPT consecutive outputs. It stages the filter
// and its input tile plus the K-1 halo in (dynamic) shared memory, converted to FP32 and zero-filled
// outside [0, n), with OPT independent coalesced loads per thread. Each thread then computes OPT
// consecutive outputs: the filter is walked in chunks of KC taps, and for each chunk the thread reads the
// OPT+KC-1 input values its outputs need into registers (2- or 4-wide shared-memory loads when OPT is even)
// and does OPT*KC FMAs from them, so shared-memory traffic per FMA drops by about OPT*KC/(OPT+KC-1)
// compared with one load per product. Every output is accumulated in FP32 in increasing k, the reference's
// order; the last partial chunk is guarded so taps k >= K never contribute. Outputs are written as one
// OPT-element vector per thread when the output is aligned, one element at a time otherwise.
// Knobs: BLOCK (threads), OPT (outputs per thread), KC (filter taps per register window).
//
// kopt:knob BLOCK = [64, 128, 256, 512]
// kopt:knob OPT = [1, 2, 4, 8]
// kopt:knob KC = [4, 8, 16]
// kopt:launch grid=(ceil_div({{ARG3}}, BLOCK * OPT)) block=(BLOCK) shared=(4 * (2 * ceil_div({{ARG4}}, 4) * 4 + BLOCK * OPT + KC + 8)) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef OPT
#define OPT 4
#endif
#ifndef KC
#define KC 8
#endif

static_assert(OPT == 1 || OPT == 2 || OPT == 4 || OPT == 8, "OPT is 1, 2, 4 or 8");
static_assert(KC % 4 == 0, "filter chunks are read as float4");

namespace conv1d_tiled {

constexpr int kVw = OPT < 4 ? OPT : 4;                                // shared-memory load width
constexpr int kWin = (OPT + KC - 1 + kVw - 1) / kVw * kVw;  // window floats, a multiple of kVw

// kWin floats from p (aligned to kVw floats) into registers.
__device__ __forceinline__ void load_window(float (&v)[kWin], float const* p) {
#pragma unroll
  for (int i = 0; i < kWin; i += kVw) {
    if constexpr (kVw == 4) {
      float4 const a = *reinterpret_cast<float4 const*>(p + i);
      v[i] = a.x;
      v[i + 1] = a.y;
      v[i + 2] = a.z;
      v[i + 3] = a.w;
    } else if constexpr (kVw == 2) {
      float2 const a = *reinterpret_cast<float2 const*>(p + i);
      v[i] = a.x;
      v[i + 1] = a.y;
    } else {
      v[i] = p[i];
    }
  }
}

}  // namespace conv1d_tiled

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, const {{T}}* __restrict__ w, int n,
              int K) {
  using namespace kopt_strategy;
  using namespace conv1d_tiled;
  extern __shared__ __align__(16) float smem[];
  int const tid = static_cast<int>(threadIdx.x);
  int const kp = (K + 3) / 4 * 4;
  float* const ws = smem;        // kp floats: the filter
  float* const tile = smem + kp;  // tile_len floats: input positions first .. first + tile_len - 1
  int const tile_len = BLOCK * OPT + kp + KC + 8;
  long long const blk0 = static_cast<long long>(blockIdx.x) * (BLOCK * OPT);
  long long const first = blk0 - K / 2;

  for (int k = tid; k < kp; k += BLOCK) ws[k] = k < K ? to_float(w[k]) : 0.0f;
  // The first BLOCK*OPT tile entries: OPT independent loads per thread.
#pragma unroll
  for (int j = 0; j < OPT; ++j) {
    int const i = j * BLOCK + tid;
    long long const g = first + i;
    tile[i] = (g >= 0 && g < n) ? to_float(in[g]) : 0.0f;
  }
  // The halo (K-1 values) and a zero tail the last windows may read.
  for (int i = BLOCK * OPT + tid; i < tile_len; i += BLOCK) {
    long long const g = first + i;
    tile[i] = (i < BLOCK * OPT + K - 1 && g >= 0 && g < n) ? to_float(in[g]) : 0.0f;
  }
  __syncthreads();

  int const base = tid * OPT;  // this thread's outputs: blk0 + base .. blk0 + base + OPT - 1
  float acc[OPT];
#pragma unroll
  for (int o = 0; o < OPT; ++o) acc[o] = 0.0f;
  int kc = 0;
  for (; kc + KC <= K; kc += KC) {
    float v[kWin];
    load_window(v, tile + base + kc);
#pragma unroll
    for (int kk = 0; kk < KC; kk += 4) {
      float4 const wq = *reinterpret_cast<float4 const*>(ws + kc + kk);
      float const wk[4] = {wq.x, wq.y, wq.z, wq.w};
#pragma unroll
      for (int q = 0; q < 4; ++q)
#pragma unroll
        for (int o = 0; o < OPT; ++o) acc[o] = fmaf(wk[q], v[o + kk + q], acc[o]);
    }
  }
  if (kc < K) {  // the last partial chunk: taps kc .. K-1
    float v[kWin];
    load_window(v, tile + base + kc);
#pragma unroll
    for (int kk = 0; kk < KC; ++kk) {
      if (kc + kk < K) {
        float const wk = ws[kc + kk];
#pragma unroll
        for (int o = 0; o < OPT; ++o) acc[o] = fmaf(wk, v[o + kk], acc[o]);
      }
    }
  }

  long long const i0 = blk0 + base;
  if (i0 + OPT <= n && aligned_to(out + i0, sizeof({{T}}) * OPT)) {
    Pack<{{T}}, OPT> p;
#pragma unroll
    for (int o = 0; o < OPT; ++o) p.v[o] = from_float<{{T}}>(acc[o]);
    store_pack<{{T}}, OPT>(out + i0, p);
  } else {
#pragma unroll
    for (int o = 0; o < OPT; ++o)
      if (i0 + o < n) out[i0 + o] = from_float<{{T}}>(acc[o]);
  }
}
