// Strategy matrix_power_squaring (family matrix_power, FP32 only, launcher mode).
// out = A^p for a row-major n x n matrix A and p >= 1 (p = 0 writes the identity; p < 0 is treated as 0),
// FP32 products with FP32 intermediates. Binary exponentiation from the leading bit of p down: R = A, then
// per lower bit R = R * R and, when the bit is set, R = R * A, so A^p takes floor(log2 p) + popcount(p) - 1
// products instead of p - 1 (p = 13: 5 instead of 12). Each product is the shared-memory, register-tiled
// GEMM tile of smem_register_tiled (smem_register_tile.cuh: a BM x BN tile of the product per block, K
// slices of BK double-buffered in shared memory, TM x TN outputs per thread in registers); the first
// product reads A in place, the intermediate powers live in two n x n FP32 buffers of a static workspace
// (allocated once, grown only when a larger n needs it) used in turn, and the last product writes out
// directly. Any n (including odd n: partial tiles, unaligned rows) and any p work.
// Knobs: BM, BN (block tile), BK (K slice), TM, TN (register tile per thread: 4 or 8).
//
// kopt:knob BM = [32, 64, 128, 256]
// kopt:knob BN = [32, 64, 128, 256]
// kopt:knob BK = [8, 16, 32]
// kopt:knob TM = [4, 8]
// kopt:knob TN = [4, 8]
// Threads per block between 64 and 256:
// kopt:constraint (BM / TM) * (BN / TN) >= 64 && (BM / TM) * (BN / TN) <= 256
// Every thread loads the same number of 4-element vectors of each slice:
// kopt:constraint (BM * BK) % ((BM / TM) * (BN / TN) * 4) == 0
// kopt:constraint (BK * BN) % ((BM / TM) * (BN / TN) * 4) == 0
// A thread stages at most 32 floats of each slice in registers:
// kopt:constraint (BM + BN) * BK <= 32 * (BM / TM) * (BN / TN)
// Static shared memory (two buffers) at most 48 KiB:
// kopt:constraint 8 * BK * (BM + 4 + BN) <= 49152

#include <cuda_runtime.h>

// kopt:include smem_register_tile.cuh

namespace matrix_power_squaring {

using smem_register_tiled::Elem;
using smem_register_tiled::kThreads;

static_assert(sizeof(Elem) == 4, "matrix_power_squaring keeps FP32 intermediates: FP32 tasks only");

// C = X * Y for n x n matrices, one BM x BN tile of C per block.
__global__ void __launch_bounds__(kThreads)
    product_kernel(Elem* __restrict__ C, Elem const* __restrict__ X, Elem const* __restrict__ Y, int n) {
  smem_register_tiled::gemm_tile(C, X, Y, n, n, n);
}

void launch_product(Elem* C, Elem const* X, Elem const* Y, int n) {
  dim3 const grid(static_cast<unsigned>(kopt_strategy::ceil_div(n, BN)),
                  static_cast<unsigned>(kopt_strategy::ceil_div(n, BM)));
  product_kernel<<<grid, kThreads, 0, kopt_strategy::launch_stream()>>>(C, X, Y, n);
}

}  // namespace matrix_power_squaring

// kopt:include matrix_power_schedule.cuh

extern "C" void {{ENTRY}}({{T}}* out, const {{T}}* A, int n, int p) {
  if (n <= 0) return;
  if (matrix_power_schedule::power_without_product(out, A, n, p)) return;
  size_t const pitch = matrix_power_schedule::matrix_pitch(n);
  auto* buffers = static_cast<{{T}}*>(matrix_power_schedule::workspace(2 * pitch * sizeof({{T}})));
  if (buffers == nullptr) return;  // out of memory: out stays as it is and verification reports it
  const {{T}}* power = A;  // the power computed so far
  int next = 0;            // the buffer the next intermediate goes to (the other may hold `power`)
  matrix_power_schedule::for_each_product(p, [&](bool square, bool last) {
    {{T}}* dst = last ? out : buffers + next * pitch;
    matrix_power_squaring::launch_product(dst, power, square ? power : A, n);
    power = dst;
    next ^= 1;
  });
}
