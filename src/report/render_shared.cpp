#include "report/render_shared.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kopt/report.hpp"
#include "report/text_table.hpp"

namespace kopt::report_text {

std::string cuda_version(int version) {
  if (version <= 0) return "unknown";
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

std::string device_summary(DeviceInfo const& device) {
  std::string text = device.name.empty() ? std::string("unnamed GPU") : device.name;
  text += fmt::format(", {}", device.arch());
  if (device.sm_count > 0) text += fmt::format(", {} SMs", device.sm_count);
  if (device.memory_bytes > 0) text += ", " + format_si(static_cast<double>(device.memory_bytes), "B");
  text += ", driver " + cuda_version(device.driver_version);
  return text;
}

std::string timing_cell(KernelTiming const& timing) {
  return fmt::format("{} ± {}", format_duration_us(timing.us.median), format_duration_us(timing.us.iqr()));
}

std::string timing_cell(std::optional<KernelTiming> const& timing) {
  return timing ? timing_cell(*timing) : std::string("-");
}

std::string key_value_lines(std::vector<std::pair<std::string, std::string>> const& lines) {
  std::size_t width = 0;
  for (auto const& [key, value] : lines) width = std::max(width, display_width(key));
  std::string out;
  for (auto const& [key, value] : lines) {
    out += key;
    out += std::string(width - display_width(key) + 2, ' ');
    out += value;
    out += '\n';
  }
  return out;
}

}  // namespace kopt::report_text
