// Device helpers shared by every strategy template (strategies/*/*.cu). kopt puts this text at the top of
// each instantiated strategy, so a candidate is one self-contained source (docs/strategies.md). Element
// types are FP32 and BF16 storage with FP32 arithmetic.
#include <cuda_bf16.h>

namespace kopt_strategy {

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

// N elements of T moved as one aligned access (N * sizeof(T) of 4, 8 or 16 bytes is one instruction).
template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

template <typename T, int N>
__device__ __forceinline__ Pack<T, N> load_pack(T const* p) {
  return *reinterpret_cast<Pack<T, N> const*>(p);
}
template <typename T, int N>
__device__ __forceinline__ void store_pack(T* p, Pack<T, N> const& pack) {
  *reinterpret_cast<Pack<T, N>*>(p) = pack;
}

// True when `p` can be accessed `bytes` at a time.
__device__ __forceinline__ bool aligned_to(void const* p, unsigned bytes) {
  return (reinterpret_cast<unsigned long long>(p) & (bytes - 1ull)) == 0ull;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

#ifndef __CUDACC_RTC__
// The stream a strategy's launcher launches on: the caller's, when the task's launcher takes a
// cudaStream_t (kopt's adapter sets it around the call, docs/strategies.md "Binding"), else stream 0
// (the per-thread default stream under kopt's --default-stream per-thread).
inline cudaStream_t& launch_stream_slot() {
  static thread_local cudaStream_t stream = nullptr;
  return stream;
}
inline cudaStream_t launch_stream() { return launch_stream_slot(); }
// Sets the launch stream for its lifetime (the adapter's call of the strategy's launcher).
struct LaunchStreamScope {
  explicit LaunchStreamScope(cudaStream_t stream) : previous(launch_stream_slot()) {
    launch_stream_slot() = stream;
  }
  ~LaunchStreamScope() { launch_stream_slot() = previous; }
  LaunchStreamScope(LaunchStreamScope const&) = delete;
  LaunchStreamScope& operator=(LaunchStreamScope const&) = delete;
  cudaStream_t previous;
};
#endif

}  // namespace kopt_strategy
