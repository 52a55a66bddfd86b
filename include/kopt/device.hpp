// What the worker reports about its GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kopt/measure.hpp"

namespace kopt {

struct DeviceInfo {
  int index = 0;
  std::string name;  // "NVIDIA H200"
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t memory_bytes = 0;
  int clock_khz = 0;       // max SM clock
  int driver_version = 0;  // CUDA driver API version, e.g. 13000
  int runtime_version = 0;
  std::string uuid;
  DeviceCeilings ceilings;  // measured copy bandwidth, computed peaks
  std::string isolation;    // what the worker's sandbox achieved ("netns+rlimits", ...)
  int visible_devices = 0;  // CUDA devices the worker sees (CUDA_VISIBLE_DEVICES applied); 0: unknown
  std::string arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
};

// What `kopt calibrate` measured on one device with one driver (docs/analysis.md). Cached under
// <compile cache>/calibration/<uuid>-<driver>.json; an Evaluator on that device then uses the measured
// FP32 and tensor-core peaks for speed-of-light bounds instead of the ones computed from the clock.
struct DeviceCalibration {
  std::string device_name;
  std::string uuid;
  int driver_version = 0;
  double dram_bytes_per_s = 0.0;         // device-to-device copy, read + write
  double fp32_flops_per_s = 0.0;         // FFMA stream on every SM
  double bf16_tensor_flops_per_s = 0.0;  // cuBLAS GEMM 8192^3, BF16 in, FP32 accumulate
  double fp16_tensor_flops_per_s = 0.0;  // same with FP16 inputs
  std::string measured_at;               // ISO 8601 UTC
  std::vector<std::string> notes;        // what could not be measured
};

}  // namespace kopt
