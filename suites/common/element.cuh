// Element conversions shared by every suite reference (suites/<scenario>/*-common.cuh): FP32 and BF16
// storage, arithmetic in float or double, one rounding to the storage type at the end.
#pragma once
#include <cuda_bf16.h>

namespace kopt_suite {

__device__ __forceinline__ float to_float(float v) {
  return v;
}
__device__ __forceinline__ float to_float(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
__device__ __forceinline__ double to_double(float v) {
  return static_cast<double>(v);
}
__device__ __forceinline__ double to_double(__nv_bfloat16 v) {
  return static_cast<double>(__bfloat162float(v));
}

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

// Rounds a double result once to the storage type.
__device__ __forceinline__ void store(float* p, double v) {
  *p = static_cast<float>(v);
}
__device__ __forceinline__ void store(__nv_bfloat16* p, double v) {
  *p = __double2bfloat16(v);
}

}  // namespace kopt_suite
