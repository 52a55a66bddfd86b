// output[i] = input[i] * gamma[(i / spatial) % channels]: one thread per element, 64-bit indices, one FP32
// product.
__global__ void apply_channel_scale_kernel(const float* input, const float* gamma, float* output,
                                           long long channels, long long spatial, long long total) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  output[i] = input[i] * gamma[(i / spatial) % channels];
}

extern "C" void apply_channel_scale(const float* input, const float* gamma, float* output, long long batch,
                                    long long channels, long long spatial) {
  long long const total = batch * channels * spatial;
  if (total <= 0) return;
  apply_channel_scale_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(input, gamma, output,
                                                                                  channels, spatial, total);
}
