// Reference for tests/gpu/tasks/analysis_probes: one thread per element copies its input.

__global__ void probe_reference_kernel(float* out, const float* in, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

extern "C" void probe(float* out, const float* in, const int* /*index*/, int n) {
  if (n <= 0) return;
  probe_reference_kernel<<<(n + 255) / 256, 256>>>(out, in, n);
}
