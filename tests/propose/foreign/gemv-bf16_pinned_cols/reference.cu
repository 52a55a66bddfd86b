// y = W h, W row-major rows x 768: one thread per row, double accumulation of the widened values, one
// rounding to BF16 (the suite's gemv reference).
#include <cuda_bf16.h>

constexpr int kCols = 768;

__global__ void proj768_bf16_kernel(__nv_bfloat16* y, const __nv_bfloat16* W, const __nv_bfloat16* h,
                                    int rows) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const __nv_bfloat16* a = W + static_cast<long long>(row) * kCols;
  double sum = 0.0;
  for (int j = 0; j < kCols; ++j)
    sum += static_cast<double>(__bfloat162float(a[j])) * static_cast<double>(__bfloat162float(h[j]));
  y[row] = __double2bfloat16(sum);
}

extern "C" void proj768_bf16(__nv_bfloat16* y, const __nv_bfloat16* W, const __nv_bfloat16* h, int rows) {
  if (rows <= 0) return;
  proj768_bf16_kernel<<<(rows + 255) / 256, 256>>>(y, W, h, rows);
}
