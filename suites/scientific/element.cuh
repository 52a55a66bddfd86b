// The scientific suite's references use the conversions shared by every suite (suites/common/element.cuh),
// the position of an element of an NCHW or NCDHW tensor, and the convolution references' epilogue.
#pragma once
#include "../common/element.cuh"

namespace scientific_suite {
using namespace kopt_suite;

// Element i of an N x C x H x W tensor (row-major) as its image, channel, row and column.
struct NchwIndex {
  long long n;
  int c, y, x;
};

__host__ __device__ inline NchwIndex nchw_index(long long i, int C, int H, int W) {
  return NchwIndex{i / (static_cast<long long>(W) * H * C),
                   static_cast<int>((i / (static_cast<long long>(W) * H)) % C), static_cast<int>((i / W) % H),
                   static_cast<int>(i % W)};
}

// Element i of an N x C x D x H x W tensor (row-major) as its image, channel, depth, row and column.
struct NcdhwIndex {
  long long n;
  int c, z, y, x;
};

__host__ __device__ inline NcdhwIndex ncdhw_index(long long i, int C, int D, int H, int W) {
  NchwIndex const p = nchw_index(i, C, D, H * W);  // p.x: the position in the H x W plane
  return NcdhwIndex{p.n, p.c, p.y, p.x / W, p.x % W};
}

// A convolution reference's output channel c in double, before its one rounding: with `bias`,
// max(sum + bias[c], 0) (a layer with its bias and a ReLU); with `shift` as well, plus shift[c] after the
// ReLU. Either may be nullptr.
template <typename T>
__device__ inline double bias_relu_shift(double sum, const T* bias, const T* shift, int c) {
  if (bias != nullptr) {
    sum += to_double(bias[c]);
    sum = sum > 0.0 ? sum : 0.0;
  }
  if (shift != nullptr) sum += to_double(shift[c]);
  return sum;
}
}  // namespace scientific_suite
