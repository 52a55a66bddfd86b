// One thread per environment walks its trajectory backwards, a double running sum.
#include <cstdint>

__global__ void rewards_to_go_kernel(const float* rewards, float* returns, int64_t num_envs,
                                     int64_t horizon) {
  int64_t const e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (e >= num_envs) return;
  double g = 0.0;
  for (int64_t t = horizon - 1; t >= 0; --t) {
    g += rewards[e * horizon + t];
    returns[e * horizon + t] = static_cast<float>(g);
  }
}

extern "C" void rewards_to_go(const float* rewards, float* returns, int64_t num_envs, int64_t horizon) {
  if (num_envs <= 0 || horizon <= 0) return;
  rewards_to_go_kernel<<<static_cast<unsigned>((num_envs + 127) / 128), 128>>>(rewards, returns, num_envs,
                                                                               horizon);
}
