// A pitched copy in cudaMemcpy2D's order, pitches and width in elements: one thread per element.
__global__ void copy_pitched_kernel(float* dst, int dpitch, const float* src, int spitch, int width,
                                    int height) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  int const r = blockIdx.y;
  if (c < width && r < height)
    dst[static_cast<long long>(r) * dpitch + c] = src[static_cast<long long>(r) * spitch + c];
}

extern "C" void copy_pitched(float* dst, int dpitch, const float* src, int spitch, int width, int height) {
  if (width <= 0 || height <= 0) return;
  copy_pitched_kernel<<<dim3((width + 127) / 128, height), 128>>>(dst, dpitch, src, spitch, width, height);
}
