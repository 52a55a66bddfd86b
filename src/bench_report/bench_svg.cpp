// The bench plot: one line per task (its largest size; for PyTorch problems, the `problem` size against eager
// and torch.compile), speedup over the reference and ratio to the vendor
// library as log-scale bars, coloured by scenario. Self-contained SVG, no script.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "kopt/bench_report.hpp"
#include "kopt/text.hpp"

namespace kopt {
namespace {

constexpr double kRowHeight = 16.0;
constexpr double kLabelWidth = 250.0;
constexpr double kPanelWidth = 330.0;
constexpr double kGap = 40.0;
constexpr double kTop = 44.0;

// x of `value` in a log panel spanning [lo, hi] starting at `left`.
double log_x(double value, double lo, double hi, double left) {
  double const clamped = std::clamp(value, lo, hi);
  return left + (std::log10(clamped) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) * kPanelWidth;
}

void panel(std::string& svg, std::string const& title, double left, double lo, double hi, double height,
           std::vector<double> const& marks) {
  svg += fmt::format(R"(<text x="{:.1f}" y="16" font-weight="bold">{}</text>)", left, markup_escape(title));
  for (double m : marks) {
    double const x = log_x(m, lo, hi, left);
    svg += fmt::format(
        R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#bbb" stroke-dasharray="{3}"/>)"
        R"(<text x="{0:.1f}" y="36" text-anchor="middle" font-size="10">{4}x</text>)",
        x, kTop - 4, kTop + height, m == 1.0 ? "" : "2,2",
        m < 1 ? fmt::format("{:.1f}", m) : fmt::format("{:g}", m));
  }
}

}  // namespace

std::string render_bench_svg(BenchSummary const& summary) {
  // PyTorch problems: each problem's `problem` size case, against eager and torch.compile; a suite: each
  // task's largest size case, against its reference and the vendor library.
  bool const torch = summary.torch.has_value();
  std::vector<BenchRow const*> rows;
  if (torch) {
    rows = torch_problem_rows(summary.rows);
  } else {
    for (auto const& r : summary.rows) {
      if (r.largest) rows.push_back(&r);
    }
  }
  static std::map<std::string, std::string> const suite_palette{
      {"algebra", "#4e79a7"}, {"llm", "#f28e2b"}, {"sparse", "#59a14f"}, {"scientific", "#b07aa1"}};
  static std::map<std::string, std::string> const level_palette{
      {"level1", "#4e79a7"}, {"level2", "#f28e2b"}, {"level3", "#59a14f"}};
  auto const& palette = torch ? level_palette : suite_palette;
  double const height = kRowHeight * static_cast<double>(rows.size());
  double const width = kLabelWidth + 2 * kPanelWidth + kGap + 20;
  std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" font-family="sans-serif" font-size="11">)",
      width, kTop + height + 30);
  double const left1 = kLabelWidth;
  double const left2 = kLabelWidth + kPanelWidth + kGap;
  double const lo1 = torch ? 0.1 : 0.5;  // a PyTorch problem's kernel can be slower than eager
  panel(svg,
        torch ? "speedup over PyTorch eager (problem size)" : "speedup over the reference (largest size)",
        left1, lo1, 1000.0, height,
        torch ? std::vector<double>{0.1, 0.5, 1, 10, 100, 1000} : std::vector<double>{1, 10, 100, 1000});
  panel(svg, torch ? "kopt vs torch.compile (>1: faster)" : "kopt vs the vendor library (>1: faster)", left2,
        0.1, 10.0, height, {0.1, 0.5, 0.9, 1, 2, 10});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto const& r = *rows[i];
    double const y = kTop + kRowHeight * static_cast<double>(i);
    auto const colour = palette.contains(r.scenario) ? palette.at(r.scenario) : std::string("#888");
    svg += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="end">{}</text>)", kLabelWidth - 6, y + 11,
                       markup_escape(r.task + (r.status == "ok" ? "" : " (" + r.status + ")")));
    if (r.speedup) {
      double const x0 = log_x(1.0, lo1, 1000.0, left1);
      double const x1 = log_x(*r.speedup, lo1, 1000.0, left1);
      svg += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"><title>{:.2f}x</title></rect>)",
          std::min(x0, x1), y + 2, std::abs(x1 - x0), kRowHeight - 4, colour, *r.speedup);
    }
    if (r.vs_vendor) {
      double const x0 = log_x(1.0, 0.1, 10.0, left2);
      double const x1 = log_x(*r.vs_vendor, 0.1, 10.0, left2);
      svg += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}" opacity="0.8"><title>{:.2f}x</title></rect>)",
          std::min(x0, x1), y + 2, std::max(1.0, std::abs(x1 - x0)), kRowHeight - 4, colour, *r.vs_vendor);
    }
  }
  double x = left1;
  for (auto const& [scenario, colour] : palette) {
    svg += fmt::format(
        R"(<rect x="{:.1f}" y="{:.1f}" width="10" height="10" fill="{}"/><text x="{:.1f}" y="{:.1f}">{}</text>)",
        x, kTop + height + 12, colour, x + 14, kTop + height + 21, scenario);
    x += 90;
  }
  return svg + "</svg>\n";
}

}  // namespace kopt
