// Pieces of text that several report renderers share.
#pragma once

#include <optional>
#include <string>

#include "kopt/device.hpp"
#include "kopt/eval.hpp"

namespace kopt::report_text {

// "13.0" for 13000; "unknown" for 0.
std::string cuda_version(int version);
// "NVIDIA H200, sm_90, 132 SMs, 141 GB, driver 13.0"
std::string device_summary(DeviceInfo const& device);
// "12.3 µs ± 412 ns": median and interquartile range of the per-call time.
std::string timing_cell(KernelTiming const& timing);
std::string timing_cell(std::optional<KernelTiming> const& timing);
// "key      value" lines whose values line up.
std::string key_value_lines(std::vector<std::pair<std::string, std::string>> const& lines);

}  // namespace kopt::report_text
