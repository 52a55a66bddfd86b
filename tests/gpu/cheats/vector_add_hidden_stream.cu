// expect: ok
// defeats: timing with events on the launch stream only (the work runs on a stream the events never see)
// mode: launcher
// task: examples/vector_add

// An honest float4 kernel, but launched on the launcher's own non-blocking stream, and the launcher
// returns without waiting. Events recorded on the per-thread default stream would time almost
// nothing. The output is right, so the verdict is ok; tests/gpu/cheats_test.cpp also checks that
// kopt noticed the escaped work (KernelTiming::device_wide) and did not report it faster than an
// honest launcher.
#include <cuda_runtime.h>

namespace {

__global__ void vector_add_float4_kernel(float* c, const float* a, const float* b, int n) {
  int const stride = gridDim.x * blockDim.x;
  int const first = blockIdx.x * blockDim.x + threadIdx.x;
  int const n4 = n / 4;
  for (int i = first; i < n4; i += stride) {
    float4 const x = reinterpret_cast<const float4*>(a)[i];
    float4 const y = reinterpret_cast<const float4*>(b)[i];
    reinterpret_cast<float4*>(c)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  for (int i = 4 * n4 + first; i < n; i += stride) c[i] = a[i] + b[i];
}

cudaStream_t hidden_stream() {
  static cudaStream_t const stream = [] {
    cudaStream_t s = nullptr;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  return stream;
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  if (n <= 0) return;
  int const needed = (n / 4 + 255) / 256;
  int const grid = needed < 1 ? 1 : (needed < 1056 ? needed : 1056);
  vector_add_float4_kernel<<<grid, 256, 0, hidden_stream()>>>(c, a, b, n);
}
