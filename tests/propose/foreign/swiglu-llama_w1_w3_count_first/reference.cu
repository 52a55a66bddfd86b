// h = silu(w1x) * w3x, one thread per element, evaluated in double and rounded once.
__global__ void llama_ffn_gate_kernel(int count, const float* w1x, const float* w3x, float* h) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  double const g = w1x[i];
  h[i] = static_cast<float>(g / (1.0 + exp(-g)) * static_cast<double>(w3x[i]));
}

extern "C" void llama_ffn_gate(int count, const float* w1x, const float* w3x, float* h) {
  if (count <= 0) return;
  llama_ffn_gate_kernel<<<(count + 255) / 256, 256>>>(count, w1x, w3x, h);
}
