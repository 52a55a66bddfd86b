// What the worker reports about its GPU.
#pragma once

#include <cstdint>
#include <string>

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
  std::string arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
};

}  // namespace kopt
