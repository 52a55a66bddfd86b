// ReLU on float4 values, one thread per float4.
__global__ void relu_vec4_kernel(float4* y, const float4* x, int n4) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 const v = x[i];
  y[i] = make_float4(fmaxf(v.x, 0.0f), fmaxf(v.y, 0.0f), fmaxf(v.z, 0.0f), fmaxf(v.w, 0.0f));
}

extern "C" void relu_vec4(float4* y, const float4* x, int n4) {
  if (n4 <= 0) return;
  relu_vec4_kernel<<<(n4 + 255) / 256, 256>>>(y, x, n4);
}
