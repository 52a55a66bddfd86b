// The table of `kopt energy`: joules per call of the candidate and the reference, and their ratio.
#include <fmt/format.h>

#include <cmath>

#include "kopt/report.hpp"
#include "report/render_shared.hpp"
#include "report/text_table.hpp"

namespace kopt {
namespace {

using report_text::Align;
using report_text::Cell;
using report_text::Style;

std::string spread_text(ValueSpread const& s, std::string_view unit, double scale) {
  std::string const median = format_3sig(s.median * scale);
  if (s.min == s.max) return fmt::format("{} {}", median, unit);
  return fmt::format("{} {} [{}-{}]", median, unit, format_3sig(s.min * scale), format_3sig(s.max * scale));
}

std::string temperature_text(EnergyMeasurement const& m) {
  auto text = [](std::optional<double> const& t) { return t ? fmt::format("{:.0f}", *t) : std::string("?"); };
  if (!m.temperature_start_c && !m.temperature_end_c) return "-";
  return fmt::format("{}->{} C", text(m.temperature_start_c), text(m.temperature_end_c));
}

std::string clock_text(ValueSpread const& s) {
  if (s.max <= 0.0) return "-";
  if (s.min == s.max) return fmt::format("{:.0f}", s.median);
  return fmt::format("{:.0f} [{:.0f}-{:.0f}]", s.median, s.min, s.max);
}

void add_row(report_text::TextTable& table, std::string who, EnergyMeasurement const& m) {
  table.add_row({Cell(std::move(who)), Cell(energy_per_call_text(m.joules_per_call)),
                 Cell(fmt::format("{:.0f}", m.avg_watts)), Cell(fmt::format("{:.0f}", m.idle_watts)),
                 Cell(clock_text(m.sm_clock_mhz)), Cell(clock_text(m.memory_clock_mhz)),
                 Cell(temperature_text(m)), Cell(std::to_string(m.calls)),
                 Cell(fmt::format("{:.2f}", m.window_s)), Cell(m.graph ? "graph" : "loop")});
}

}  // namespace

std::string energy_per_call_text(ValueSpread const& joules) {
  double const largest = std::max({std::abs(joules.min), std::abs(joules.median), std::abs(joules.max)});
  if (largest >= 1.0 || largest == 0.0) return spread_text(joules, "J", 1.0);
  if (largest >= 1e-3) return spread_text(joules, "mJ", 1e3);
  if (largest >= 1e-6) return spread_text(joules, "µJ", 1e6);
  return spread_text(joules, "nJ", 1e9);
}

std::string render_energy(EnergyReport const& report, RenderOptions const& options) {
  std::string out = report_text::key_value_lines({
      {"task", report.task},
      {"candidate", report.candidate},
      {"size", report.size},
      {"device", report_text::device_summary(report.device)},
      {"protocol", fmt::format("{} window{} of >= {:g} s each, {:g} s idle before each", report.trials,
                               report.trials == 1 ? "" : "s", report.window_s, report.cooldown_s)},
  });
  if (report.status != CandidateStatus::ok) {
    return out +
           report_text::styled(fmt::format("status     {}: {}", to_string(report.status), report.message),
                               Style::bad, options.color) +
           "\n";
  }
  report_text::TextTable table({{"who", Align::left},
                                {"J/call median [min-max]", Align::right},
                                {"avg W", Align::right},
                                {"idle W", Align::right},
                                {"SM MHz", Align::right},
                                {"mem MHz", Align::right},
                                {"temp", Align::right},
                                {"calls/window", Align::right},
                                {"window s", Align::right},
                                {"run as", Align::left}});
  if (report.candidate_energy) add_row(table, "candidate", *report.candidate_energy);
  if (report.reference_energy) add_row(table, "reference", *report.reference_energy);
  out += "\n" + table.render("", options.color);
  if (report.ratio) {
    Style const style = *report.ratio < 1.0 ? Style::good : (*report.ratio > 1.0 ? Style::bad : Style::none);
    out += "\n" +
           report_text::styled(
               fmt::format("energy per call, candidate / reference: {}", format_ratio(*report.ratio)), style,
               options.color) +
           "\n";
  }
  for (auto const* m : {&report.candidate_energy, &report.reference_energy}) {
    if (*m && !(*m)->note.empty()) out += "note: " + (*m)->note + "\n";
  }
  if (options.verbose) {
    for (auto const& [who, m] : {std::pair{"candidate", &report.candidate_energy},
                                 std::pair{"reference", &report.reference_energy}}) {
      if (!*m) continue;
      for (std::size_t i = 0; i < (*m)->trials.size(); ++i) {
        auto const& t = (*m)->trials[i];
        out += fmt::format("{} window {}: {:.3f} J in {:.3f} s, {} calls, {:.1f} W (idle before {:.1f} W)\n",
                           who, i + 1, t.joules, t.seconds, t.calls, t.avg_watts, t.idle_watts);
      }
    }
    if (!report.sampling.empty()) out += "sampling: " + report.sampling + "\n";
  }
  return out;
}

}  // namespace kopt
