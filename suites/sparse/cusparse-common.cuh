// Shared by the sparse suite's cuSPARSE baselines (generic API, FP32 compute for FP32 and BF16 storage).
// The handle is created once and bound to the per-thread default stream kopt times on; the workspace is
// allocated once and grown when a larger one is asked for (never freed per call). Descriptors are
// host-side structs wrapping the caller's pointers, so they are created and destroyed per call.
#pragma once
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstddef>
#include <cstdio>

namespace sparse_suite {

inline cusparseHandle_t cusparse_handle() {
  static cusparseHandle_t const handle = [] {
    cusparseHandle_t h = nullptr;
    if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS) {
      std::fprintf(stderr, "cusparse-common.cuh: cusparseCreate failed\n");
      return static_cast<cusparseHandle_t>(nullptr);
    }
    cusparseSetStream(h, cudaStreamPerThread);
    return h;
  }();
  return handle;
}

// A device buffer of at least `bytes` bytes (at least 256), kept across calls; nullptr if out of memory.
inline void* cusparse_workspace(std::size_t bytes) {
  static void* buffer = nullptr;
  static std::size_t capacity = 0;
  if (bytes < 256) bytes = 256;
  if (bytes > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, bytes) != cudaSuccess) {
      std::fprintf(stderr, "cusparse-common.cuh: cudaMalloc(%zu) for the workspace failed\n", bytes);
      return nullptr;
    }
    capacity = bytes;
  }
  return buffer;
}

inline bool cusparse_ok(cusparseStatus_t status, const char* what) {
  if (status == CUSPARSE_STATUS_SUCCESS) return true;
  std::fprintf(stderr, "cusparse baseline: %s failed: %s\n", what, cusparseGetErrorString(status));
  return false;
}

// y = A x with alpha = 1, beta = 0, FP32 compute; `type` is the storage type of A, x and y.
inline void cusparse_spmv(cusparseConstSpMatDescr_t a, cudaDataType type, void* y, const void* x, int M,
                          int N, cusparseSpMVAlg_t alg) {
  cusparseHandle_t const handle = cusparse_handle();
  if (handle == nullptr) return;
  cusparseConstDnVecDescr_t vx = nullptr;
  cusparseDnVecDescr_t vy = nullptr;
  if (cusparse_ok(cusparseCreateConstDnVec(&vx, N, x, type), "cusparseCreateConstDnVec") &&
      cusparse_ok(cusparseCreateDnVec(&vy, M, y, type), "cusparseCreateDnVec")) {
    float const alpha = 1.0f;
    float const beta = 0.0f;
    std::size_t bytes = 0;
    if (cusparse_ok(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, vx, &beta,
                                            vy, CUDA_R_32F, alg, &bytes),
                    "cusparseSpMV_bufferSize")) {
      void* const workspace = cusparse_workspace(bytes);
      if (workspace != nullptr) {
        cusparse_ok(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, vx, &beta, vy,
                                 CUDA_R_32F, alg, workspace),
                    "cusparseSpMV");
      }
    }
  }
  if (vx != nullptr) cusparseDestroyDnVec(vx);
  if (vy != nullptr) cusparseDestroyDnVec(vy);
}

// y = A x, A M x N in CSR with 32-bit indices.
inline void cusparse_spmv_csr(cudaDataType type, void* y, const int* row_ptr, const int* col_idx,
                              const void* vals, const void* x, int M, int N, int NNZ) {
  if (M <= 0 || cusparse_handle() == nullptr) return;
  cusparseConstSpMatDescr_t a = nullptr;
  if (cusparse_ok(cusparseCreateConstCsr(&a, M, N, NNZ, row_ptr, col_idx, vals, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
                  "cusparseCreateConstCsr")) {
    cusparse_spmv(a, type, y, x, M, N, CUSPARSE_SPMV_CSR_ALG1);
  }
  if (a != nullptr) cusparseDestroySpMat(a);
}

// y = A x, A M x N in COO (sorted by row) with 32-bit indices.
inline void cusparse_spmv_coo(cudaDataType type, void* y, const int* row_idx, const int* col_idx,
                              const void* vals, const void* x, int M, int N, int NNZ) {
  if (M <= 0 || cusparse_handle() == nullptr) return;
  cusparseConstSpMatDescr_t a = nullptr;
  if (cusparse_ok(cusparseCreateConstCoo(&a, M, N, NNZ, row_idx, col_idx, vals, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, type),
                  "cusparseCreateConstCoo")) {
    cusparse_spmv(a, type, y, x, M, N, CUSPARSE_SPMV_COO_ALG1);
  }
  if (a != nullptr) cusparseDestroySpMat(a);
}

// C = A B, A M x K in CSR, B K x N and C M x N dense row-major; alpha = 1, beta = 0, FP32 compute.
inline void cusparse_spmm_csr(cudaDataType type, void* C, const int* row_ptr, const int* col_idx,
                              const void* vals, const void* B, int M, int K, int N, int NNZ) {
  cusparseHandle_t const handle = cusparse_handle();
  if (M <= 0 || N <= 0 || handle == nullptr) return;
  cusparseConstSpMatDescr_t a = nullptr;
  cusparseConstDnMatDescr_t b = nullptr;
  cusparseDnMatDescr_t c = nullptr;
  if (cusparse_ok(cusparseCreateConstCsr(&a, M, K, NNZ, row_ptr, col_idx, vals, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
                  "cusparseCreateConstCsr") &&
      cusparse_ok(cusparseCreateConstDnMat(&b, K, N, N, B, type, CUSPARSE_ORDER_ROW),
                  "cusparseCreateConstDnMat") &&
      cusparse_ok(cusparseCreateDnMat(&c, M, N, N, C, type, CUSPARSE_ORDER_ROW), "cusparseCreateDnMat")) {
    float const alpha = 1.0f;
    float const beta = 0.0f;
    std::size_t bytes = 0;
    if (cusparse_ok(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                            CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, b, &beta, c,
                                            CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &bytes),
                    "cusparseSpMM_bufferSize")) {
      void* const workspace = cusparse_workspace(bytes);
      if (workspace != nullptr) {
        cusparse_ok(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                 &alpha, a, b, &beta, c, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, workspace),
                    "cusparseSpMM");
      }
    }
  }
  if (a != nullptr) cusparseDestroySpMat(a);
  if (b != nullptr) cusparseDestroyDnMat(b);
  if (c != nullptr) cusparseDestroyDnMat(c);
}

}  // namespace sparse_suite
