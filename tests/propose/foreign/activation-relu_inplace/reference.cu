// In-place ReLU, one thread per element.
__global__ void relu_inplace_kernel(float* x, long numel) {
  long const i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < numel && x[i] < 0.0f) x[i] = 0.0f;
}

extern "C" void relu_(float* x, long numel) {
  if (numel <= 0) return;
  relu_inplace_kernel<<<static_cast<unsigned>((numel + 255) / 256), 256>>>(x, numel);
}
