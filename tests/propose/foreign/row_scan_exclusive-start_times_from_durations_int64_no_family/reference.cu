// One thread per track, a double running sum; each step's start written before its duration is added.
#include <cstdint>

__global__ void start_times_kernel(const float* durations, float* starts, int64_t num_tracks,
                                   int64_t num_steps) {
  int64_t const t = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (t >= num_tracks) return;
  double clock = 0.0;
  for (int64_t s = 0; s < num_steps; ++s) {
    starts[t * num_steps + s] = static_cast<float>(clock);
    clock += durations[t * num_steps + s];
  }
}

extern "C" void start_times(const float* durations, float* starts, int64_t num_tracks, int64_t num_steps) {
  if (num_tracks <= 0 || num_steps <= 0) return;
  start_times_kernel<<<static_cast<unsigned>((num_tracks + 127) / 128), 128>>>(durations, starts, num_tracks,
                                                                               num_steps);
}
