// flags: register_spills
// 64 live accumulators under __launch_bounds__(1024, 2) (32 registers per thread): ptxas spills.
// The same code as register_spill in bench/analysis_capture/analysis_kernels.cu (the captured fixture), on
// purpose: the live test must see what the capture test saw.
// kopt:launch grid=(264) block=(1024)
extern "C" __global__ void __launch_bounds__(1024, 2) probe(float* out, const float* in, const int* /*index*/,
                                                            int n) {
  int const m = n / 16;
  float acc[64];
#pragma unroll
  for (int k = 0; k < 64; ++k) acc[k] = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
    float const x = in[i];
#pragma unroll
    for (int k = 0; k < 64; ++k) acc[k] = fmaf(acc[k], x, static_cast<float>(k));
  }
  float total = 0.0f;
#pragma unroll
  for (int k = 0; k < 64; ++k) total += acc[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}
