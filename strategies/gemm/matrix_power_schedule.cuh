// The squaring schedule shared by matrix_power_squaring and matrix_power_squaring_mma (include lines,
// docs/strategies.md), spliced after the strategy's product kernel: left-to-right binary exponentiation,
// the grow-only workspace that holds the intermediate powers, and the p <= 1 cases. Host code except the
// identity kernel.

namespace matrix_power_schedule {

// The workspace: allocated on first use, grown (never shrunk) when a larger problem needs more.
inline void* workspace(size_t bytes) {
  static void* buffer = nullptr;
  static size_t capacity = 0;
  if (bytes > capacity) {
    if (buffer != nullptr) cudaFree(buffer);  // implicitly waits for the work that still uses it
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, bytes) != cudaSuccess) {
      buffer = nullptr;
      return nullptr;
    }
    capacity = bytes;
  }
  return buffer;
}

// Elements of one n x n matrix in the workspace, rounded up to 128 so that every matrix starts on a
// 256-byte boundary (16-byte vector and cp.async paths stay available whatever n is).
inline size_t matrix_pitch(int n) {
  return (static_cast<size_t>(n) * static_cast<size_t>(n) + 127) / 128 * 128;
}

// out = I (n x n): p = 0 is the identity, as A^0.
template <typename Elem>
__global__ void identity_kernel(Elem* __restrict__ out, int n) {
  long long const count = static_cast<long long>(n) * n;
  long long const stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = kopt_strategy::from_float<Elem>(i / n == i % n ? 1.0f : 0.0f);
}

// The cases without a product: p <= 0 writes the identity, p = 1 copies A. True when it handled p.
template <typename Elem>
bool power_without_product(Elem* out, Elem const* A, int n, int p) {
  if (p >= 2) return false;
  if (p == 1) {
    cudaMemcpyAsync(out, A, static_cast<size_t>(n) * n * sizeof(Elem), cudaMemcpyDeviceToDevice,
                    kopt_strategy::launch_stream());
  } else {
    long long const count = static_cast<long long>(n) * n;
    long long blocks = (count + 255) / 256;
    if (blocks > 132 * 8) blocks = 132 * 8;
    identity_kernel<Elem><<<static_cast<unsigned>(blocks), 256, 0, kopt_strategy::launch_stream()>>>(out, n);
  }
  return true;
}

// Calls product(square, last) for each product of A^p, p >= 2, in order: R = A, then for each bit of p
// below the leading one, R = R * R (square) and, when the bit is set, R = R * A. floor(log2 p) squarings
// and popcount(p) - 1 products by A (p = 13: 3 + 2 = 5 products, where A * A * ... * A takes 12); `last`
// marks the final one, which writes the output.
template <typename Product>
void for_each_product(int p, Product product) {
  int top = 30;
  while (((p >> top) & 1) == 0) --top;
  int remaining = top;
  for (int bit = top - 1; bit >= 0; --bit) remaining += (p >> bit) & 1;
  for (int bit = top - 1; bit >= 0; --bit) {
    product(true, --remaining == 0);
    if (((p >> bit) & 1) != 0) product(false, --remaining == 0);
  }
}

}  // namespace matrix_power_schedule
