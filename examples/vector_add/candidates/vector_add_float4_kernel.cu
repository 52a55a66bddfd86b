// Kernel-mode candidate for examples/vector_add (device code only; kopt launches it).
// float4 loads and stores in a grid-stride loop plus a scalar tail for the last n % 4 elements.
// The grid is capped at 132 SMs x 8 resident blocks of 256 threads (one full wave on an H200), so
// each thread streams several float4s instead of the task's default one-thread-per-element grid:
// kopt:launch grid=(min(ceil_div(n, 1024), 1056)) block=(256)

extern "C" __global__ void __launch_bounds__(256)
    vector_add(float* __restrict__ c, const float* __restrict__ a, const float* __restrict__ b, int n) {
  int const stride = gridDim.x * blockDim.x;
  int const first = blockIdx.x * blockDim.x + threadIdx.x;
  // cudaMalloc'd buffers are 256-byte aligned; an offset view might not be, so check (uniform branch).
  bool const aligned = ((reinterpret_cast<unsigned long long>(a) | reinterpret_cast<unsigned long long>(b) |
                         reinterpret_cast<unsigned long long>(c)) &
                        15ull) == 0;
  if (!aligned) {
    for (int i = first; i < n; i += stride) c[i] = a[i] + b[i];
    return;
  }
  int const n4 = n / 4;
  auto* c4 = reinterpret_cast<float4*>(c);
  auto const* a4 = reinterpret_cast<const float4*>(a);
  auto const* b4 = reinterpret_cast<const float4*>(b);
  for (int i = first; i < n4; i += stride) {
    float4 const x = a4[i];
    float4 const y = b4[i];
    c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  for (int i = 4 * n4 + first; i < n; i += stride) c[i] = a[i] + b[i];
}
