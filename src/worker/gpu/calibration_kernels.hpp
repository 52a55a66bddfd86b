// Kernels of `kopt calibrate` (calibration.cpp): an FFMA stream that keeps every FP32 pipe busy.
#pragma once

namespace kopt::worker {

// Launches blocks x 256 threads, each running `iterations` rounds of 8 independent FMA chains
// (16 FLOP per chain per round), on cudaStreamPerThread; results go to `sink` (blocks x 256 floats).
void launch_ffma_peak(float* sink, int blocks, int iterations);

inline constexpr int kFfmaThreads = 256;
inline constexpr int kFfmaChains = 8;

}  // namespace kopt::worker
