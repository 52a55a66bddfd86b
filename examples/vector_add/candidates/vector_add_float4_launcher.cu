// Launcher-mode candidate for examples/vector_add: float4 loads and stores in a grid-stride loop,
// a scalar loop for the last n % 4 elements, and a grid sized to fill the GPU once (not n / 256
// blocks). Falls back to a scalar grid-stride loop when a pointer is not 16-byte aligned.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int kBlock = 256;
constexpr int kBlocksPerSm = 8;  // 8 x 256 threads = 2048, the H100/H200 per-SM thread limit

__global__ void __launch_bounds__(kBlock)
    vector_add_float4_kernel(float* __restrict__ c, const float* __restrict__ a, const float* __restrict__ b,
                             int n) {
  int const stride = gridDim.x * blockDim.x;
  int const first = blockIdx.x * blockDim.x + threadIdx.x;
  int const n4 = n / 4;
  auto* c4 = reinterpret_cast<float4*>(c);
  auto const* a4 = reinterpret_cast<const float4*>(a);
  auto const* b4 = reinterpret_cast<const float4*>(b);
  for (int i = first; i < n4; i += stride) {
    float4 const x = a4[i];
    float4 const y = b4[i];
    c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  // Scalar tail: at most three elements past the last full float4.
  for (int i = 4 * n4 + first; i < n; i += stride) c[i] = a[i] + b[i];
}

__global__ void __launch_bounds__(kBlock)
    vector_add_scalar_kernel(float* __restrict__ c, const float* __restrict__ a, const float* __restrict__ b,
                             int n) {
  int const stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

int resident_blocks() {
  static int const blocks = [] {
    int device = 0;
    int sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms <= 0) {
      sms = 132;
    }
    return sms * kBlocksPerSm;
  }();
  return blocks;
}

bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  if (n <= 0) return;
  int const needed = (n / 4 + kBlock - 1) / kBlock;
  int const grid = needed < 1 ? 1 : (needed < resident_blocks() ? needed : resident_blocks());
  if (aligned16(c) && aligned16(a) && aligned16(b)) {
    vector_add_float4_kernel<<<grid, kBlock>>>(c, a, b, n);
  } else {
    vector_add_scalar_kernel<<<grid, kBlock>>>(c, a, b, n);
  }
}
