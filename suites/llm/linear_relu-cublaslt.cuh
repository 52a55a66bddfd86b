// Vendor baseline shared by suites/llm/linear_relu-f32, linear_relu-bf16, linear_relu_scale-f32 and
// linear_relu_scale-bf16: one cublasLtMatmul with the bias and the ReLU fused in its epilogue
// (CUBLASLT_EPILOGUE_RELU_BIAS), FP32 compute (CUBLAS_COMPUTE_32F: no TF32) and FP32 scale; what PyTorch's
// fused addmm + relu reaches at best. cuBLASLt is column-major: the row-major M x N out is the column-major
// N x M out^T = weight * x^T, where the row-major N x K weight is the column-major K x N matrix transposed
// (TRANSA = T) and the row-major M x K x is the column-major K x M matrix (TRANSB = N); the bias is per row
// of out^T (N values). The handle, the 32 MiB workspace and one plan per shape (descriptors and the
// heuristic's first algorithm) are made once and reused; the calls go to the per-thread default stream kopt
// times on. Should the heuristic offer no algorithm with the fused epilogue, the plan falls back to a plain
// cublasLtMatmul and a bias + ReLU kernel (said once on stderr). linear_relu_scale passes a per-feature
// scale: cuBLASLt has no epilogue that multiplies after the ReLU (its per-row alpha vector scales before the
// bias, and a negative scale does not commute with the ReLU), so one more pass over out multiplies each
// element by its column's scale (in the fallback's bias + ReLU kernel, not a third pass); for BF16 out is
// then rounded twice (after the ReLU and after the scale), within the tasks' tolerance.
#pragma once
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <map>
#include <tuple>
#include <type_traits>

#include "../common/element.cuh"

namespace llm_linear_relu {

// The pass after the matmul, in place over out: with a bias (the unfused fallback) out = max(out + bias, 0),
// then, with a scale, out times scale[column]. Either may be nullptr.
template <typename T>
__global__ void bias_relu_scale_kernel(T* out, const T* bias, const T* scale, int M, int N) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(M) * N) return;
  int const col = static_cast<int>(i % N);
  float v = kopt_suite::to_float(out[i]);
  if (bias != nullptr) {
    v += kopt_suite::to_float(bias[col]);
    v = v > 0.0f ? v : 0.0f;
  }
  if (scale != nullptr) v *= kopt_suite::to_float(scale[col]);
  out[i] = kopt_suite::from_float<T>(v);
}

struct LtPlan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr;  // the weight
  cublasLtMatrixLayout_t b = nullptr;  // x
  cublasLtMatrixLayout_t c = nullptr;  // out
  cublasLtMatmulAlgo_t algo{};
  bool fused = false;  // the epilogue adds the bias and applies ReLU
  bool ok = false;
};

inline cublasLtHandle_t lt_handle() {
  static cublasLtHandle_t const handle = [] {
    cublasLtHandle_t h = nullptr;
    if (cublasLtCreate(&h) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "baseline_cublaslt.cu: cublasLtCreate failed\n");
      return static_cast<cublasLtHandle_t>(nullptr);
    }
    return h;
  }();
  return handle;
}

constexpr size_t kWorkspaceBytes = size_t{32} << 20;

inline void* lt_workspace() {
  static void* const workspace = [] {
    void* p = nullptr;
    if (cudaMalloc(&p, kWorkspaceBytes) != cudaSuccess) return static_cast<void*>(nullptr);
    return p;
  }();
  return workspace;
}

// The plan for one shape with the epilogue `epilogue`: ok when the heuristic offers an algorithm.
inline LtPlan make_plan(cudaDataType_t type, int M, int N, int K, cublasLtEpilogue_t epilogue) {
  LtPlan plan;
  if (cublasLtMatmulDescCreate(&plan.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS)
    return plan;
  cublasOperation_t const transa = CUBLAS_OP_T;
  cublasOperation_t const transb = CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(plan.op, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof(transa));
  cublasLtMatmulDescSetAttribute(plan.op, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof(transb));
  cublasLtMatmulDescSetAttribute(plan.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue));
  if (epilogue != CUBLASLT_EPILOGUE_DEFAULT) {
    cublasLtMatmulDescSetAttribute(plan.op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &type, sizeof(type));
  }
  cublasLtMatrixLayoutCreate(&plan.a, type, K, N, K);
  cublasLtMatrixLayoutCreate(&plan.b, type, K, M, K);
  cublasLtMatrixLayoutCreate(&plan.c, type, N, M, N);
  cublasLtMatmulPreference_t preference = nullptr;
  cublasLtMatmulPreferenceCreate(&preference);
  size_t const workspace = lt_workspace() != nullptr ? kWorkspaceBytes : 0;
  cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                       sizeof(workspace));
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  cublasStatus_t const status = cublasLtMatmulAlgoGetHeuristic(lt_handle(), plan.op, plan.a, plan.b, plan.c,
                                                               plan.c, preference, 1, &result, &found);
  cublasLtMatmulPreferenceDestroy(preference);
  plan.ok = status == CUBLAS_STATUS_SUCCESS && found > 0;
  plan.algo = result.algo;
  plan.fused = epilogue != CUBLASLT_EPILOGUE_DEFAULT;
  return plan;
}

// out = x W^T with the bias and `epilogue` fused where cuBLASLt offers an algorithm with it, a plain matmul
// otherwise (`what` names the epilogue and what the caller does instead, for the message); the plan cached
// per shape. False (after a message) when no algorithm exists or the call failed; `fused` says whether the
// epilogue ran.
template <typename T>
bool lt_linear(T* out, const T* x, const T* weight, const T* bias, int M, int N, int K,
               cublasLtEpilogue_t epilogue, char const* what, bool& fused) {
  cudaDataType_t const type = std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_16BF;
  static std::map<std::tuple<int, int, int, int>, LtPlan> plans;
  std::tuple<int, int, int, int> const key{M, N, K, static_cast<int>(epilogue)};
  auto it = plans.find(key);
  if (it == plans.end()) {
    LtPlan plan = make_plan(type, M, N, K, epilogue);
    if (!plan.ok) {
      std::fprintf(stderr, "baseline_cublaslt.cu: no cuBLASLt algorithm with the %s for M=%d N=%d K=%d\n",
                   what, M, N, K);
      plan = make_plan(type, M, N, K, CUBLASLT_EPILOGUE_DEFAULT);
    }
    it = plans.emplace(key, plan).first;
  }
  LtPlan const& plan = it->second;
  fused = plan.fused;
  if (!plan.ok) {
    std::fprintf(stderr, "baseline_cublaslt.cu: no cuBLASLt algorithm for M=%d N=%d K=%d\n", M, N, K);
    return false;
  }
  if (plan.fused) {
    void const* bias_pointer = bias;
    cublasLtMatmulDescSetAttribute(plan.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias_pointer,
                                   sizeof(bias_pointer));
  }
  float const alpha = 1.0f;
  float const beta = 0.0f;
  void* const workspace = lt_workspace();
  cublasStatus_t const status =
      cublasLtMatmul(lt_handle(), plan.op, &alpha, weight, plan.a, x, plan.b, &beta, out, plan.c, out, plan.c,
                     &plan.algo, workspace, workspace != nullptr ? kWorkspaceBytes : 0, cudaStreamPerThread);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "baseline_cublaslt.cu: cublasLtMatmul failed (%d)\n", status);
    return false;
  }
  return true;
}

// scale: nullptr for linear_relu, the per-feature scale (N values) for linear_relu_scale.
template <typename T>
void linear_relu_cublaslt(T* out, const T* x, const T* weight, const T* bias, int M, int N, int K,
                          const T* scale = nullptr) {
  if (lt_handle() == nullptr || M <= 0 || N <= 0) return;
  bool fused = false;
  if (!lt_linear(out, x, weight, bias, M, N, K, CUBLASLT_EPILOGUE_RELU_BIAS,
                 "fused bias + ReLU epilogue; a plain matmul and a bias + ReLU kernel instead", fused))
    return;
  if (!fused || scale != nullptr) {
    long long const total = static_cast<long long>(M) * N;
    int const block = 256;
    bias_relu_scale_kernel<T>
        <<<static_cast<unsigned>((total + block - 1) / block), block, 0, cudaStreamPerThread>>>(
            out, fused ? nullptr : bias, scale, M, N);
  }
}

}  // namespace llm_linear_relu
