// Vendor baseline for matrix_power-bf16: A widened to FP32 once, the squaring schedule of
// ../matrix_power-common.cuh with every product a cublasSgemm in FP32 (CUBLAS_DEFAULT_MATH: no TF32), and
// the last power rounded once to BF16, the semantics of the task (FP32 intermediates). Three n x n FP32
// buffers (A and two powers used in turn) are grow-only.
// cuBLAS is column-major; a row-major n x n product C = X * Y is the column-major C^T = Y^T * X^T, so the
// operands are passed swapped with no transposition flags.
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"
#include "../matrix_power-common.cuh"

__global__ void widen_kernel(float* out, const __nv_bfloat16* in, long long count) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = __bfloat162float(in[i]);
}

__global__ void narrow_kernel(__nv_bfloat16* out, const float* in, long long count) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = __float2bfloat16_rn(in[i]);
}

extern "C" void matrix_power(__nv_bfloat16* out, const __nv_bfloat16* A, int n, int p) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || n <= 0) return;
  size_t const count = static_cast<size_t>(n) * n;
  if (p <= 1) {  // the identity (p <= 0) or A itself: no product
    matrix_power_reference(out, A, n, p);
    return;
  }
  static void* buffer = nullptr;
  static size_t capacity = 0;
  auto* a = static_cast<float*>(matrix_power_suite::grow(buffer, capacity, 3 * count * sizeof(float)));
  if (a == nullptr) return;
  float* buffers = a + count;
  unsigned const blocks = static_cast<unsigned>((count + 255) / 256);
  widen_kernel<<<blocks, 256, 0, cudaStreamPerThread>>>(a, A, static_cast<long long>(count));
  float const alpha = 1.0f;
  float const beta = 0.0f;
  const float* power = a;
  int next = 0;
  matrix_power_suite::for_each_squaring_product(p, [&](bool square, bool last) {
    (void)last;  // the last power is narrowed below
    float* dst = buffers + next * count;
    const float* right = square ? power : a;
    cublasStatus_t const status =
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, right, n, power, n, &beta, dst, n);
    if (status != CUBLAS_STATUS_SUCCESS)
      std::fprintf(stderr, "baseline_cublas.cu: cublasSgemm failed (%d)\n", status);
    power = dst;
    next ^= 1;
  });
  narrow_kernel<<<blocks, 256, 0, cudaStreamPerThread>>>(out, power, static_cast<long long>(count));
}
