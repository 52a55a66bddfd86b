// The scientific suite's references use the conversions shared by every suite (suites/common/element.cuh),
// and the position of an element of an NCHW tensor.
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
}  // namespace scientific_suite
