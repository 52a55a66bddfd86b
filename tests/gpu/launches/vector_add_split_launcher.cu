// Launcher-mode candidate for examples/vector_add that splits the vector into 16 chunks and launches one
// small kernel per chunk: correct, and on the medium size (2^20 elements) each launch is about a
// microsecond of work, so most of the call is gaps between launches. kernel_activity_test.cpp expects
// CUPTI to count exactly kLaunches launches and the launch_overhead tool to flag the call.
#include <cuda_runtime.h>

namespace {

constexpr int kLaunches = 16;
constexpr int kBlock = 256;

__global__ void vector_add_chunk(float* c, const float* a, const float* b, int first, int last) {
  int const i = first + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < last) c[i] = a[i] + b[i];
}

}  // namespace

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  if (n <= 0) return;
  int const chunk = (n + kLaunches - 1) / kLaunches;
  for (int k = 0; k < kLaunches; ++k) {
    int const first = k * chunk;
    int const last = first + chunk < n ? first + chunk : n;
    int const count = last > first ? last - first : 1;  // an empty tail chunk still launches (one block)
    vector_add_chunk<<<(count + kBlock - 1) / kBlock, kBlock>>>(c, a, b, first, last);
  }
}
