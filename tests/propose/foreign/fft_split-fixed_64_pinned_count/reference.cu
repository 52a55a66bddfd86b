// One thread per output of 64-point transforms: double twiddles and accumulation.
constexpr int kPoints = 64;

__global__ void fft64_split_kernel(float* out_r, float* out_i, const float* in_r, const float* in_i,
                                   int count) {
  long long const o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(count) * kPoints) return;
  long long const t = o / kPoints;
  int const k = static_cast<int>(o % kPoints);
  double yr = 0.0;
  double yi = 0.0;
  for (int j = 0; j < kPoints; ++j) {
    double s = 0.0;
    double c = 0.0;
    sincospi(-2.0 * ((j * k) % kPoints) / kPoints, &s, &c);
    double const a = in_r[t * kPoints + j];
    double const b = in_i[t * kPoints + j];
    yr += a * c - b * s;
    yi += a * s + b * c;
  }
  out_r[o] = static_cast<float>(yr);
  out_i[o] = static_cast<float>(yi);
}

extern "C" void fft64_split(float* out_r, float* out_i, const float* in_r, const float* in_i, int count) {
  if (count <= 0) return;
  long long const total = static_cast<long long>(count) * kPoints;
  fft64_split_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(out_r, out_i, in_r, in_i, count);
}
