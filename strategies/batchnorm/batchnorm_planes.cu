// Strategy batchnorm_planes, batchnorm family (kernel mode): batch normalisation with given statistics
// (inference), NCHW: out[n][c][h][w] = (x[n][c][h][w] - mean[c]) * gamma[c] / sqrt(var[c] + eps) + beta[c].
// A block works on one chunk of one (n, c) plane: blockIdx.y walks the planes (grid-stride beyond
// 65535), blockIdx.x the chunks of BLOCK * ITEMS elements of the H*W plane. The channel's scale
// gamma / sqrt(var + eps) is computed once per block (every thread the same value, no shared memory),
// the element is (x - mean) * scale + beta with one FMA, in FP32, rounded once to T. Loads and stores
// are vectors (128-bit, or ITEMS elements when fewer) wherever x and out sit at the same distance from a
// vector boundary: a plane that starts inside a vector (H*W not a multiple of the vector) is its first
// `lead` elements, then whole vectors, then a tail of fewer than a vector; block 0 of the plane does the
// lead and the tail element by element. Each thread issues all its loads of a chunk before its first
// store; the plane's last chunk guards each vector. Only when x and out are misaligned against each other
// does a plane go element by element, so any shape and any offset are correct. No integer division per
// element.
//
// Knobs: BLOCK threads per block; ITEMS elements per thread and chunk.
// kopt:knob BLOCK = [64, 128, 256, 512]
// kopt:knob ITEMS = [4, 8, 16, 32]
// At most 8192 elements per chunk (keeps the loaded values in registers under __launch_bounds__).
// kopt:constraint BLOCK * ITEMS <= 8192
// kopt:launch grid=(max(1, ceil_div({{ARG9}} * {{ARG10}}, BLOCK * ITEMS)), max(1, min({{ARG7}} * {{ARG8}}, 65535))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif

namespace batchnorm_planes {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

template <typename T>
struct Shape {
  static constexpr int kPack = 16 / static_cast<int>(sizeof(T));
  static constexpr int kVec = ITEMS < kPack ? ITEMS : kPack;  // elements per access
  static constexpr int kVectors = ITEMS / kVec;               // accesses per thread and chunk
  static_assert(ITEMS % kVec == 0, "ITEMS is a multiple of the vector width");
};

template <typename T>
__device__ __forceinline__ void run(T* __restrict__ out, const T* __restrict__ x, const T* __restrict__ mean,
                                    const T* __restrict__ var, const T* __restrict__ gamma,
                                    const T* __restrict__ beta, float eps, int N, int C, int H, int W) {
  using S = Shape<T>;
  using P = kopt_strategy::Pack<T, S::kVec>;
  long long const planes = static_cast<long long>(N) * C;
  long long const plane_elems = static_cast<long long>(H) * W;
  long long const chunk = static_cast<long long>(BLOCK) * ITEMS;
  long long const first = static_cast<long long>(blockIdx.x) * chunk;
  if (first >= plane_elems) return;
  for (long long p = blockIdx.y; p < planes; p += gridDim.y) {
    int const c = static_cast<int>(p % C);
    float const m = to_float(mean[c]);
    float const scale = to_float(gamma[c]) * rsqrtf(to_float(var[c]) + eps);
    float const shift = to_float(beta[c]);
    T const* xp = x + p * plane_elems;
    T* op = out + p * plane_elems;
    // Vectors need x and out at the same distance from a vector boundary: then the plane is `lead`
    // elements, `body` whole vectors and a tail of fewer than kVec elements.
    unsigned long long const ax = reinterpret_cast<unsigned long long>(xp);
    unsigned long long const ao = reinterpret_cast<unsigned long long>(op);
    bool const vectors = ((ax ^ ao) % sizeof(P)) == 0 && ax % sizeof(T) == 0;
    if (vectors) {
      long long const lead =
          min(plane_elems, static_cast<long long>((sizeof(P) - ax % sizeof(P)) % sizeof(P) / sizeof(T)));
      long long const body = (plane_elems - lead) / S::kVec;
      T const* xv = xp + lead;
      T* ov = op + lead;
      long long const first_vector = first / S::kVec;  // the chunk's vectors: chunk / kVec of them
      if (first_vector + BLOCK * S::kVectors <= body) {
        P v[S::kVectors];
#pragma unroll
        for (int j = 0; j < S::kVectors; ++j)
          v[j] = kopt_strategy::load_pack<T, S::kVec>(
              xv + (first_vector + static_cast<long long>(j) * BLOCK + threadIdx.x) * S::kVec);
#pragma unroll
        for (int j = 0; j < S::kVectors; ++j) {
#pragma unroll
          for (int e = 0; e < S::kVec; ++e) v[j].v[e] = from_float<T>(fmaf(to_float(v[j].v[e]) - m, scale, shift));
          kopt_strategy::store_pack<T, S::kVec>(
              ov + (first_vector + static_cast<long long>(j) * BLOCK + threadIdx.x) * S::kVec, v[j]);
        }
      } else {  // the plane's last chunk: whole vectors up to `body`
        P v[S::kVectors];
#pragma unroll
        for (int j = 0; j < S::kVectors; ++j) {
          long long const at = first_vector + static_cast<long long>(j) * BLOCK + threadIdx.x;
          if (at < body) v[j] = kopt_strategy::load_pack<T, S::kVec>(xv + at * S::kVec);
        }
#pragma unroll
        for (int j = 0; j < S::kVectors; ++j) {
          long long const at = first_vector + static_cast<long long>(j) * BLOCK + threadIdx.x;
          if (at < body) {
#pragma unroll
            for (int e = 0; e < S::kVec; ++e)
              v[j].v[e] = from_float<T>(fmaf(to_float(v[j].v[e]) - m, scale, shift));
            kopt_strategy::store_pack<T, S::kVec>(ov + at * S::kVec, v[j]);
          }
        }
      }
      if (blockIdx.x == 0) {  // the lead and the tail, element by element (fewer than kVec each)
        long long const tail = plane_elems - lead - body * S::kVec;
        if (threadIdx.x < lead) op[threadIdx.x] = from_float<T>(fmaf(to_float(xp[threadIdx.x]) - m, scale, shift));
        if (threadIdx.x < tail) {
          long long const at = lead + body * S::kVec + threadIdx.x;
          op[at] = from_float<T>(fmaf(to_float(xp[at]) - m, scale, shift));
        }
      }
    } else {
#pragma unroll
      for (int j = 0; j < S::kVectors; ++j) {
        long long const at = first + (static_cast<long long>(j) * BLOCK + threadIdx.x) * S::kVec;
#pragma unroll
        for (int e = 0; e < S::kVec; ++e) {
          if (at + e < plane_elems) op[at + e] = from_float<T>(fmaf(to_float(xp[at + e]) - m, scale, shift));
        }
      }
    }
  }
}

}  // namespace batchnorm_planes

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* out, const {{T}}* x, const {{T}}* mean, const {{T}}* var, const {{T}}* gamma,
              const {{T}}* beta, float eps, int N, int C, int H, int W) {
  batchnorm_planes::run<{{T}}>(out, x, mean, var, gamma, beta, eps, N, C, H, W);
}
