// Kernel-mode candidate for examples/vector_add with a tuning space (docs/tuning.md).
// Each block covers a tile of BLOCK * VEC * ITEMS consecutive elements: thread t handles ITEMS vectors
// of VEC floats, vector j of the tile at t + j * BLOCK (so a warp's loads are contiguous). A vector
// that runs past n, or buffers that are not 16-byte aligned, take the scalar path, so any n works.
//
// kopt:knob BLOCK = [64, 128, 256, 512, 1024]
// kopt:knob VEC = [1, 2, 4]
// kopt:knob ITEMS = [1, 2, 4, 8]
// kopt:constraint VEC * ITEMS <= 16
// kopt:launch grid=(ceil_div(n, BLOCK * VEC * ITEMS)) block=(BLOCK)

// Defaults, so that the file also compiles (and runs with the task's geometry) without kopt optimize.
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef ITEMS
#define ITEMS 2
#endif

template <int N>
struct Floats;
template <>
struct Floats<1> {
  using type = float;
  static __device__ float add(float x, float y) { return x + y; }
};
template <>
struct Floats<2> {
  using type = float2;
  static __device__ float2 add(float2 x, float2 y) { return make_float2(x.x + y.x, x.y + y.y); }
};
template <>
struct Floats<4> {
  using type = float4;
  static __device__ float4 add(float4 x, float4 y) {
    return make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
};

extern "C" __global__ void __launch_bounds__(BLOCK)
    vector_add(float* __restrict__ c, const float* __restrict__ a, const float* __restrict__ b, int n) {
  using V = typename Floats<VEC>::type;
  long long const count = n;
  long long const tile = static_cast<long long>(blockIdx.x) * (BLOCK * VEC * ITEMS);
  // cudaMalloc'd buffers are 256-byte aligned; an offset view might not be (uniform branch).
  bool const aligned = ((reinterpret_cast<unsigned long long>(a) | reinterpret_cast<unsigned long long>(b) |
                         reinterpret_cast<unsigned long long>(c)) %
                        sizeof(V)) == 0;
#pragma unroll
  for (int item = 0; item < ITEMS; ++item) {
    long long const first = tile + (static_cast<long long>(item) * BLOCK + threadIdx.x) * VEC;
    if (aligned && first + VEC <= count) {
      V const x = *reinterpret_cast<const V*>(a + first);
      V const y = *reinterpret_cast<const V*>(b + first);
      *reinterpret_cast<V*>(c + first) = Floats<VEC>::add(x, y);
    } else {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        if (first + k < count) c[first + k] = a[first + k] + b[first + k];
      }
    }
  }
}
