// `kopt eval` for people: a header, one table per candidate, a verdict line, phase times.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "kopt/report.hpp"
#include "report/render_shared.hpp"
#include "report/text_table.hpp"

namespace kopt {
namespace {

using report_text::Align;
using report_text::Cell;
using report_text::Style;
using report_text::TextTable;

constexpr char const* kNone = "-";
constexpr char const* kVerifyOnly = "verify-only";

std::string plural(std::size_t count, std::string_view word) {
  return fmt::format("{} {}{}", count, word, count == 1 ? "" : "s");
}

std::string error_cell(double value) {
  if (value == 0.0) return "0";
  if (!std::isfinite(value)) return format_3sig(value);
  return fmt::format("{:.2g}", value);
}

std::string optional_ratio(std::optional<double> const& ratio) {
  return ratio ? format_ratio(*ratio) : kNone;
}

std::string optional_percent(std::optional<double> const& percent) {
  return percent ? format_3sig(*percent) + "%" : kNone;
}

std::optional<double> geomean(std::vector<double> const& values) {
  if (values.empty()) return std::nullopt;
  double log_sum = 0.0;
  for (double value : values) {
    if (!(value > 0.0)) return std::nullopt;
    log_sum += std::log(value);
  }
  return std::exp(log_sum / static_cast<double>(values.size()));
}

bool any_baseline(CandidateReport const& candidate) {
  for (auto const& size : candidate.sizes) {
    if (size.baseline || size.vs_baseline) return true;
  }
  return false;
}

std::string candidate_heading(CandidateReport const& candidate) {
  std::vector<std::string> facts{fmt::format("{} mode", to_string(candidate.mode))};
  auto const& usage = candidate.resources;
  if (usage.registers >= 0) facts.push_back(plural(static_cast<std::size_t>(usage.registers), "register"));
  if (usage.spill_stores_bytes >= 0 || usage.spill_loads_bytes >= 0) {
    int spilled = std::max(usage.spill_stores_bytes, 0) + std::max(usage.spill_loads_bytes, 0);
    facts.push_back(spilled == 0 ? std::string("no spills")
                                 : fmt::format("spills: {} B stored, {} B loaded",
                                               std::max(usage.spill_stores_bytes, 0),
                                               std::max(usage.spill_loads_bytes, 0)));
  }
  if (usage.static_shared_bytes > 0) {
    facts.push_back(format_si(static_cast<double>(usage.static_shared_bytes), "B") + " static shared");
  }
  if (candidate.cache_hit) facts.emplace_back("build cached");
  std::string heading = fmt::format("candidate {}  ({})", candidate.name, fmt::join(facts, ", "));
  if (!candidate.path.empty() && candidate.path.filename().string() != candidate.name) {
    heading += fmt::format("\n  path: {}", candidate.path.string());
  }
  return heading;
}

std::string size_table(CandidateReport const& candidate, RenderOptions const& options) {
  bool baseline = any_baseline(candidate);
  std::vector<report_text::Column> columns{
      {"size", Align::left}, {"status", Align::left}, {"max err", Align::right},
      {"ref", Align::right}, {"cand", Align::right},  {"speedup", Align::right},
  };
  if (baseline) columns.push_back({"vs vendor", Align::right});
  columns.push_back({"% SOL", Align::right});
  if (options.verbose) {
    columns.push_back({"rel err", Align::right});
    columns.push_back({"bad", Align::right});
    columns.push_back({"cand graph", Align::right});
    columns.push_back({"GB/s", Align::right});
    columns.push_back({"GFLOP/s", Align::right});
  }
  TextTable table(std::move(columns));
  for (auto const& size : candidate.sizes) {
    bool ok = size.status == CandidateStatus::ok;
    std::vector<Cell> row{Cell(size.size),
                          Cell(std::string(to_string(size.status)), ok ? Style::good : Style::bad),
                          Cell(error_cell(size.max_abs_err))};
    bool timed = !size.verify_only;
    row.emplace_back(timed ? report_text::timing_cell(size.reference) : std::string(kVerifyOnly));
    row.emplace_back(timed ? report_text::timing_cell(size.candidate) : std::string(kVerifyOnly));
    row.emplace_back(timed ? optional_ratio(size.speedup) : kNone);
    if (baseline) row.emplace_back(timed ? optional_ratio(size.vs_baseline) : kNone);
    row.emplace_back(timed ? optional_percent(size.pct_of_sol) : kNone);
    if (options.verbose) {
      row.emplace_back(error_cell(size.max_rel_err));
      row.emplace_back(std::to_string(size.mismatches));
      bool graph = timed && size.candidate && size.candidate->graph_us;
      row.emplace_back(graph ? format_duration_us(size.candidate->graph_us->median) : kNone);
      row.emplace_back(timed && size.achieved_gbps ? format_3sig(*size.achieved_gbps) : kNone);
      row.emplace_back(timed && size.achieved_gflops ? format_3sig(*size.achieved_gflops) : kNone);
    }
    table.add_row(std::move(row));
  }
  return table.render("  ", options.color);
}

// Phases that did not run (0 ms) are left out: "phases: compile 12.0 ms (total 12.0 ms)".
std::string phase_line(CandidateReport const& candidate) {
  auto const& p = candidate.phases;
  std::vector<std::string> parts;
  if (p.compile_ms > 0 || candidate.cache_hit) {
    parts.push_back(fmt::format("compile {}{}", format_duration_ms(p.compile_ms),
                                candidate.cache_hit ? " (cached)" : ""));
  }
  if (p.load_ms > 0) parts.push_back("load " + format_duration_ms(p.load_ms));
  if (p.verify_ms > 0) parts.push_back("verify " + format_duration_ms(p.verify_ms));
  if (p.time_ms > 0) parts.push_back("time " + format_duration_ms(p.time_ms));
  return fmt::format("phases: {}{}(total {})", fmt::join(parts, ", "), parts.empty() ? "" : " ",
                     format_duration_ms(p.total_ms));
}

std::string indented(std::string_view text, std::string_view indent) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out += indent;
    out += text.substr(start, end - start);
    out += '\n';
    start = end + 1;
  }
  return out;
}

// A launcher call that launched several kernels: "3 launches, kernels busy 41 % of the call".
std::optional<std::string> activity_note(CandidateReport const& candidate, SizeResult const& size) {
  if (candidate.mode != CandidateMode::launcher || !size.activity || size.activity->launches <= 1)
    return std::nullopt;
  KernelActivity const& a = *size.activity;
  std::string note = fmt::format("{} launches", a.launches);
  if (a.kernel_us && a.call_us && *a.call_us > 0.0) {
    note +=
        fmt::format(", kernels busy {:.0f} % of the call", 100.0 * std::min(1.0, *a.kernel_us / *a.call_us));
  }
  return note;
}

std::string render_candidate(CandidateReport const& candidate, RenderOptions const& options) {
  bool ok = candidate.status == CandidateStatus::ok;
  std::string out = report_text::styled(candidate_heading(candidate), Style::bold, options.color) + "\n";
  if (!candidate.sizes.empty()) out += size_table(candidate, options);
  out += "  " +
         report_text::styled(candidate_verdict(candidate), ok ? Style::good : Style::bad, options.color) +
         "\n";
  if (!candidate.diagnostics.empty() && (!ok || options.verbose)) {
    out += ok ? "  compiler output:\n" : "  diagnostics:\n";
    out += indented(candidate.diagnostics, "    ");
  }
  if (!candidate.sanitizer.empty()) out += indented("sanitizer: " + candidate.sanitizer, "  ");
  for (auto const& size : candidate.sizes) {
    if (size.candidate && size.candidate->device_wide) {
      out += fmt::format(
          "  note: size '{}': work escaped the launch stream; timed until the device was idle\n", size.size);
    }
    if (auto note = activity_note(candidate, size))
      out += fmt::format("  note: size '{}': {}\n", size.size, *note);
    if (options.verbose && !size.seeds.empty()) {
      out += fmt::format("  seeds '{}': {}\n", size.size, fmt::join(size.seeds, " "));
    }
  }
  out += "  " + phase_line(candidate) + "\n";
  return out;
}

}  // namespace

std::string candidate_verdict(CandidateReport const& candidate) {
  if (candidate.status == CandidateStatus::ok) {
    std::size_t timed = 0;
    std::vector<double> vs_baseline;
    for (auto const& size : candidate.sizes) {
      if (size.verify_only || !size.speedup) continue;
      ++timed;
      if (size.vs_baseline) vs_baseline.push_back(*size.vs_baseline);
    }
    if (timed == 0 || !candidate.geomean_speedup) {
      return fmt::format("ok: verified on {}, none timed", plural(candidate.sizes.size(), "size"));
    }
    std::string verdict = fmt::format("ok: {} geomean over the reference on {}",
                                      format_ratio(*candidate.geomean_speedup), plural(timed, "timed size"));
    if (auto vendor = geomean(vs_baseline))
      verdict += fmt::format(", {} vs the vendor baseline", format_ratio(*vendor));
    return verdict;
  }
  std::string verdict = fmt::format("REJECTED {}", to_string(candidate.status));
  std::string message = candidate.message;
  for (auto const& size : candidate.sizes) {
    if (size.status != candidate.status) continue;
    verdict += fmt::format(" on size '{}'", size.size);
    if (!size.message.empty()) message = size.message;
    break;
  }
  if (!message.empty()) verdict += ": " + message;
  return verdict;
}

std::string render_eval(EvalReport const& report, RenderOptions const& options) {
  std::vector<std::pair<std::string, std::string>> header{
      {"task",
       report.task_dir.empty() ? report.task : fmt::format("{} ({})", report.task, report.task_dir.string())},
      {"device", report_text::device_summary(report.device)},
      {"toolkit", report.toolkit.empty() ? std::string("unknown") : report.toolkit},
      {"seed", std::to_string(report.seed)},
      {"tier", std::string(to_string(report.tier))},
  };
  if (options.verbose) {
    if (!report.device.isolation.empty()) header.emplace_back("isolation", report.device.isolation);
    if (!report.started_at.empty()) header.emplace_back("started", report.started_at);
  }
  header.emplace_back("wall time", format_duration_ms(report.wall_ms));
  std::string out = report_text::key_value_lines(header);
  std::size_t ok = 0;
  for (auto const& candidate : report.candidates) {
    out += "\n" + render_candidate(candidate, options);
    if (candidate.status == CandidateStatus::ok) ++ok;
  }
  if (report.candidates.empty()) out += "\nno candidates\n";
  if (report.candidates.size() > 1) {
    std::size_t rejected = report.candidates.size() - ok;
    out += fmt::format("\n{}: {} ok, {} rejected\n", plural(report.candidates.size(), "candidate"), ok,
                       rejected);
  }
  return out;
}

}  // namespace kopt
