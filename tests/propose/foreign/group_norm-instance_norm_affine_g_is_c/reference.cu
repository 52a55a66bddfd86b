// InstanceNorm with affine parameters: one block of 256 threads per (b, c) plane, the mean and the biased
// variance in double (two passes, the partial sums added in a shared-memory tree), then the plane
// normalised and scaled by its channel's weight and bias.
constexpr int kThreads = 256;

// The sum of every thread's value over the block; all threads get it.
__device__ double block_sum(double value, double* partial) {
  partial[threadIdx.x] = value;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  double const total = partial[0];
  __syncthreads();
  return total;
}

__global__ void instance_norm_affine_kernel(const float* input, const float* weight, const float* bias,
                                            float* output, int channels, int spatial, float eps) {
  __shared__ double partial[kThreads];
  int const plane = blockIdx.x;  // b * channels + c
  int const c = plane % channels;
  const float* in = input + static_cast<long long>(plane) * spatial;
  float* out = output + static_cast<long long>(plane) * spatial;
  double sum = 0.0;
  for (int i = threadIdx.x; i < spatial; i += kThreads) sum += in[i];
  double const mean = block_sum(sum, partial) / spatial;
  double squares = 0.0;
  for (int i = threadIdx.x; i < spatial; i += kThreads) {
    double const d = in[i] - mean;
    squares += d * d;
  }
  double const var = block_sum(squares, partial) / spatial;
  double const scale = weight[c] / sqrt(var + static_cast<double>(eps));
  for (int i = threadIdx.x; i < spatial; i += kThreads) {
    out[i] = static_cast<float>((in[i] - mean) * scale + bias[c]);
  }
}

extern "C" void instance_norm_affine(const float* input, const float* weight, const float* bias,
                                     float* output, int batch, int channels, int spatial, float eps) {
  if (batch <= 0 || channels <= 0 || spatial <= 0) return;
  instance_norm_affine_kernel<<<batch * channels, kThreads>>>(input, weight, bias, output, channels, spatial,
                                                              eps);
}
