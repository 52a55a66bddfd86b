// Vendor baseline for mid_sum-f32: cublasSgemvStridedBatched in FP32 against a ones vector, one GEMV per
// batch. cuBLAS is column-major: each batch's row-major rows x cols slab is the column-major cols x rows
// matrix (leading dimension cols, slabs rows*cols apart), so its column sums out_b = A_b ones are
// cublasSgemv(CUBLAS_OP_N) of that matrix with a rows-long ones vector (../col_sum-common.cuh: filled once,
// grown never per call), shared by every batch (stride 0). The handle is created once and bound to the
// per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../col_sum-common.cuh"
#include "../cublas-handle.cuh"

extern "C" void mid_sum(float* out, const float* in, int batch, int rows, int cols) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || batch <= 0 || rows <= 0 || cols <= 0) return;
  float const* const ones = kopt_suite::ones_vector<float>(rows);
  if (ones == nullptr) return;
  float const alpha = 1.0f;
  float const beta = 0.0f;
  long long const slab = static_cast<long long>(rows) * cols;
  cublasStatus_t const status = cublasSgemvStridedBatched(handle, CUBLAS_OP_N, cols, rows, &alpha, in, cols,
                                                          slab, ones, 1, 0, &beta, out, 1, cols, batch);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgemvStridedBatched failed (%d)\n", status);
}
