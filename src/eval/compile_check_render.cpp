// A compile-only check for people: the target, then per source its status, one row per kernel and launch
// geometry (registers, spills, shared and local memory, occupancy and its limiter), findings and notes.
// Compiler diagnostics are indented under a failed source, as `kopt eval` prints them.
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "kopt/compile_check.hpp"

namespace kopt {
namespace {

constexpr char const* kNone = "-";

std::string bytes(int value) {
  return value >= 0 ? fmt::format("{} B", value) : std::string(kNone);
}

std::string bytes(std::int64_t value) {
  return fmt::format("{} B", value);
}

std::string spills(ResourceUsage const& r) {
  if (r.spill_stores_bytes < 0 && r.spill_loads_bytes < 0) return kNone;
  return fmt::format("{} / {} B", std::max(0, r.spill_stores_bytes), std::max(0, r.spill_loads_bytes));
}

std::string joined(std::vector<std::string> const& items, std::string_view separator) {
  std::string text;
  for (auto const& item : items) text += (text.empty() ? "" : std::string(separator)) + item;
  return text;
}

std::string indented(std::string const& text, std::string const& indent) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) out += indent + line + "\n";
  return out;
}

// Columns padded to their widest cell; the first `left` columns align left, the others right.
std::string aligned(std::vector<std::vector<std::string>> const& rows, std::size_t left,
                    std::string const& indent) {
  std::vector<std::size_t> widths;
  for (auto const& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (auto const& row : rows) {
    std::string line = indent;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) line += "  ";
      std::string const pad(widths[i] - row[i].size(), ' ');
      line += i < left ? row[i] + pad : pad + row[i];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string occupancy_cell(OccupancyEstimate const& o) {
  if (!o.problem.empty()) return "cannot launch";
  return fmt::format("{:.0f}% ({}/{} warps)", o.occupancy_pct, o.warps_per_sm, o.max_warps_per_sm);
}

std::string kernel_table(CompileCheckEntry const& entry) {
  std::vector<std::vector<std::string>> rows{{"kernel", "sizes", "regs", "spills st/ld", "static smem",
                                              "local", "block", "dyn smem", "occupancy", "limited by"}};
  for (KernelCheck const& kernel : entry.kernels) {
    ResourceUsage const& r = kernel.resources;
    std::vector<std::string> const common{kernel.name,
                                          "",
                                          r.registers >= 0 ? std::to_string(r.registers) : kNone,
                                          spills(r),
                                          bytes(r.static_shared_bytes),
                                          bytes(r.stack_bytes)};
    if (kernel.launches.empty()) {
      auto row = common;
      row[1] = "all";
      std::string const bound = kernel.register_bound_occupancy_pct
                                    ? fmt::format("<= {:.0f}%", *kernel.register_bound_occupancy_pct)
                                    : std::string(kNone);
      row.insert(row.end(), {kNone, kNone, bound, kernel.aggregate ? "registers (block size unknown)" : ""});
      rows.push_back(std::move(row));
      continue;
    }
    for (LaunchGeometryCheck const& launch : kernel.launches) {
      auto row = common;
      row[1] = joined(launch.sizes, ",");
      if (launch.occupancy) {
        OccupancyEstimate const& o = *launch.occupancy;
        row.insert(row.end(), {std::to_string(o.block_threads), bytes(o.dynamic_shared_bytes),
                               occupancy_cell(o), joined(o.limited_by, ", ")});
      } else {
        row.insert(row.end(), {kNone, kNone, kNone, ""});
      }
      rows.push_back(std::move(row));
    }
  }
  return aligned(rows, 2, "  ");
}

std::string entry_text(CompileCheckEntry const& entry, bool verbose) {
  std::string out = fmt::format("{} {}  ({} mode{}): {}\n", entry.role, entry.name, to_string(entry.mode),
                                entry.arch.empty() ? "" : ", " + entry.arch, to_string(entry.status));
  if (entry.status != CandidateStatus::ok) {
    if (!entry.message.empty()) out += indented(entry.message, "  ");
    if (!entry.diagnostics.empty()) out += "  diagnostics:\n" + indented(entry.diagnostics, "    ");
    return out;
  }
  if (!entry.kernels.empty()) out += kernel_table(entry);
  for (KernelCheck const& kernel : entry.kernels) {
    for (LaunchGeometryCheck const& launch : kernel.launches) {
      if (!launch.problem.empty()) out += "  problem: " + launch.problem + "\n";
      if (launch.occupancy && !launch.occupancy->problem.empty()) {
        out +=
            fmt::format("  problem (sizes {}): {}\n", joined(launch.sizes, ", "), launch.occupancy->problem);
      }
    }
  }
  for (Finding const& finding : entry.findings) {
    out += fmt::format("  finding ({}): {}\n", to_string(finding.severity), finding.explanation);
    if (!finding.strategies.empty()) out += "    strategies: " + joined(finding.strategies, ", ") + "\n";
  }
  for (std::string const& note : entry.notes) out += "  note: " + note + "\n";
  if (verbose && !entry.diagnostics.empty())
    out += "  compiler output:\n" + indented(entry.diagnostics, "    ");
  return out;
}

}  // namespace

std::string render_compile_check(CompileCheckReport const& report, bool verbose) {
  std::string out = aligned({{"task", fmt::format("{} ({})", report.task, report.task_dir.string())},
                             {"arch", fmt::format("{} ({})", report.arch, report.arch_source)},
                             {"toolkit", report.toolkit}},
                            2, "");
  for (CompileCheckEntry const& entry : report.trusted) out += "\n" + entry_text(entry, verbose);
  for (CompileCheckEntry const& entry : report.candidates) out += "\n" + entry_text(entry, verbose);
  out += "\n";
  if (!report.candidates.empty()) {
    auto const compiled = static_cast<std::size_t>(
        std::count_if(report.candidates.begin(), report.candidates.end(),
                      [](CompileCheckEntry const& entry) { return entry.status == CandidateStatus::ok; }));
    out +=
        fmt::format("{} candidate{}: {} compiled, {} failed\n", report.candidates.size(),
                    report.candidates.size() == 1 ? "" : "s", compiled, report.candidates.size() - compiled);
  }
  if (!report.checked.empty()) out += "checked: " + joined(report.checked, ", ") + "\n";
  if (!report.not_checked.empty()) out += "not checked: " + joined(report.not_checked, ", ") + "\n";
  return out;
}

}  // namespace kopt
