// Shared by col_argmax-f32/-bf16 and col_argmin-f32/-bf16: out[c] = the row of the largest (col_argmin:
// smallest) in[r*cols + c] over r < rows, a row-major rows x cols matrix (torch.argmax(dim=0) /
// torch.argmin(dim=0) with 32-bit indices): the first such row on ties (BF16 values tie often), and a NaN
// wins over every number in both directions, as PyTorch propagates it (the column's first NaN).
//
// Reference: one thread per column walking down it in order: naive on purpose (a warp's loads are
// coalesced but narrow, and with few columns few threads run), obviously right.
// No vendor baseline: no library computes a column argmax or argmin in place. CUB's
// DeviceSegmentedReduce::ArgMax/ArgMin need each segment contiguous (a column is strided: it would take a
// transposed copy first, which is not a fair comparison), and cuBLAS's I<t>amax/amin compare |x|, FP32/FP64
// only, one vector per call.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <bool kMin, typename T>
__global__ void col_arg_reference_kernel(int* out, const T* in, int rows, int cols) {
  long long const c = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  int best = 0;
  float best_value = rows > 0 ? static_cast<float>(in[c]) : 0.0f;
  for (int r = 1; r < rows; ++r) {
    if (best_value != best_value) break;  // a NaN wins: the first one stays
    float const v = static_cast<float>(in[static_cast<long long>(r) * cols + c]);
    if (v != v || (kMin ? v < best_value : v > best_value)) {
      best = r;
      best_value = v;
    }
  }
  out[c] = best;
}

template <typename T>
void col_argmax_reference(int* out, const T* in, int rows, int cols) {
  if (cols <= 0) return;
  col_arg_reference_kernel<false, T><<<(cols + 127) / 128, 128>>>(out, in, rows, cols);
}

template <typename T>
void col_argmin_reference(int* out, const T* in, int rows, int cols) {
  if (cols <= 0) return;
  col_arg_reference_kernel<true, T><<<(cols + 127) / 128, 128>>>(out, in, rows, cols);
}
