// `kopt doctor` for people: which tools were found, whether a GPU can be used, and what is missing.
#include <fmt/format.h>

#include "kopt/report.hpp"
#include "kopt/text.hpp"
#include "report/render_shared.hpp"
#include "report/text_table.hpp"

namespace kopt {
namespace {

using report_text::Align;
using report_text::Cell;
using report_text::Style;

// kopt cannot compile or run candidates without these.
bool required_tool(std::string_view name) {
  std::string key = ascii_lower(name);
  return key == "nvcc" || key == "nvrtc" || key == "driver";
}

}  // namespace

std::vector<std::string> doctor_problems(DoctorFindings const& findings) {
  std::vector<std::string> problems;
  for (auto const& tool : findings.tools) {
    if (tool.found || !required_tool(tool.name)) continue;
    problems.push_back(tool.note.empty() ? fmt::format("{} was not found", tool.name)
                                         : fmt::format("{}: {}", tool.name, tool.note));
  }
  if (!findings.device) {
    problems.push_back(findings.device_error ? fmt::format("no usable GPU: {}", *findings.device_error)
                                             : std::string("no usable GPU"));
  }
  return problems;
}

std::string render_doctor(DoctorFindings const& findings, RenderOptions const& options) {
  report_text::TextTable table({{"tool", Align::left},
                                {"status", Align::left},
                                {"version", Align::left},
                                {"path", Align::left},
                                {"note", Align::left}});
  for (auto const& tool : findings.tools) {
    Style style = tool.found ? Style::good : (required_tool(tool.name) ? Style::bad : Style::warn);
    std::string status = tool.found ? "found" : (required_tool(tool.name) ? "MISSING" : "missing (optional)");
    table.add_row({Cell(tool.name), Cell(std::move(status), style),
                   Cell(tool.version.empty() ? "-" : tool.version),
                   Cell(tool.path.empty() ? std::string("-") : tool.path.string()),
                   Cell(tool.found && !options.verbose ? std::string() : tool.note)});
  }
  std::string out = table.render("", options.color) + "\n";
  if (findings.device) {
    auto const& device = *findings.device;
    std::vector<std::pair<std::string, std::string>> lines{
        {"GPU", fmt::format("{} (device {})", report_text::device_summary(device), device.index)},
        {"runtime", report_text::cuda_version(device.runtime_version)},
    };
    if (device.ceilings.dram_bytes_per_s > 0) {
      lines.emplace_back("copy bandwidth", format_si(device.ceilings.dram_bytes_per_s, "B/s"));
    }
    if (device.ceilings.fp32_flops_per_s > 0) {
      lines.emplace_back("fp32 peak", format_si(device.ceilings.fp32_flops_per_s, "FLOP/s"));
    }
    if (device.ceilings.tensor_flops_per_s > 0) {
      lines.emplace_back("tensor peak", format_si(device.ceilings.tensor_flops_per_s, "FLOP/s"));
    }
    if (findings.calibration) lines.emplace_back("peaks", *findings.calibration);
    if (!device.isolation.empty()) lines.emplace_back("isolation", device.isolation);
    out += report_text::key_value_lines(lines);
  } else {
    out += report_text::key_value_lines(
        {{"GPU", "not available" + (findings.device_error ? ": " + *findings.device_error : std::string())}});
  }
  auto problems = doctor_problems(findings);
  out += "\n";
  if (problems.empty()) {
    out += report_text::styled("ready: kopt can compile, verify and time candidates here", Style::good,
                               options.color);
    out += "\n";
  } else {
    out += report_text::styled("not ready:", Style::bad, options.color) + "\n";
    for (auto const& problem : problems) out += "  - " + problem + "\n";
  }
  return out;
}

std::string render_doctor(std::vector<ToolStatus> const& tools, std::optional<DeviceInfo> const& device,
                          std::optional<std::string> const& device_error, RenderOptions const& options) {
  return render_doctor(DoctorFindings{tools, device, device_error, std::nullopt}, options);
}

}  // namespace kopt
