// Shared by mid_argmax-f32/-bf16 and mid_argmin-f32/-bf16: out[b*cols + c] = the row r < rows of the
// largest (mid_argmin: smallest) in[(b*rows + r)*cols + c], a row-major batch x rows x cols tensor
// (torch.argmax(x, dim=1) / torch.argmin(x, dim=1) of a 3-D tensor, int64 indices as torch returns them):
// the first such row on ties (BF16 values tie often), and a NaN wins over every number in both directions,
// as PyTorch propagates it (the column's first NaN). The conventions of col_argmax/col_argmin
// (../col_argmax-common.cuh), applied to each batch's rows x cols slab.
//
// Reference: one thread per output element (b, c), numbered b*cols + c, walking down its column of the
// slab in order: naive on purpose (a warp's loads are coalesced but narrow), obviously right.
// No vendor baseline: no library arg-reduces a strided column in place. CUB's
// DeviceSegmentedReduce::ArgMax/ArgMin need each segment contiguous (a column of a slab is strided: it
// would take a transposed copy first, which is not a fair comparison), and cuBLAS's I<t>amax/amin compare
// |x|, FP32/FP64 only, one vector per call.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

template <bool kMin, typename T>
__global__ void mid_arg_reference_kernel(int64_t* out, const T* in, int batch, int rows, int cols) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(batch) * cols) return;
  long long const b = i / cols;
  long long const c = i % cols;
  T const* const column = in + b * rows * cols + c;
  int best = 0;
  float best_value = rows > 0 ? static_cast<float>(column[0]) : 0.0f;
  for (int r = 1; r < rows; ++r) {
    if (best_value != best_value) break;  // a NaN wins: the first one stays
    float const v = static_cast<float>(column[static_cast<long long>(r) * cols]);
    if (v != v || (kMin ? v < best_value : v > best_value)) {
      best = r;
      best_value = v;
    }
  }
  out[i] = best;
}

// The launch [launch] describes: ceil_div(batch*cols, 128) blocks of 128 threads.
template <bool kMin, typename T>
void mid_arg_reference(int64_t* out, const T* in, int batch, int rows, int cols) {
  if (batch <= 0 || cols <= 0) return;
  long long const outputs = static_cast<long long>(batch) * cols;
  auto const grid = static_cast<unsigned>((outputs + 127) / 128);
  mid_arg_reference_kernel<kMin, T><<<grid, 128>>>(out, in, batch, rows, cols);
}

template <typename T>
void mid_argmax_reference(int64_t* out, const T* in, int batch, int rows, int cols) {
  mid_arg_reference<false, T>(out, in, batch, rows, cols);
}

template <typename T>
void mid_argmin_reference(int64_t* out, const T* in, int batch, int rows, int cols) {
  mid_arg_reference<true, T>(out, in, batch, rows, cols);
}
