// render_progress_svg: best-so-far screen geomean speedup against the evaluation index, as inline SVG.
// The y axis is logarithmic; every evaluation is one marker carrying data-eval="<index>".
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kopt/run_report.hpp"
#include "kopt/text.hpp"
#include "run_report/report_text.hpp"

namespace kopt {
namespace {

constexpr double kWidth = 880.0;
constexpr double kHeight = 340.0;
constexpr double kLeft = 64.0;
constexpr double kRight = 20.0;
constexpr double kTop = 18.0;
constexpr double kBottom = 58.0;
constexpr double kFailBand = 16.0;  // failures sit in a band below the plotting area
constexpr double kPlotBottom = kHeight - kBottom - kFailBand;

struct Frame {
  double x_min = 1.0;
  double x_max = 1.0;
  double log_min = 0.0;
  double log_max = 0.0;
  double x(double index) const {
    double const span = x_max > x_min ? x_max - x_min : 1.0;
    return kLeft + (index - x_min) / span * (kWidth - kLeft - kRight);
  }
  double y(double speedup) const {
    double const span = log_max > log_min ? log_max - log_min : 1.0;
    return kPlotBottom - (std::log10(speedup) - log_min) / span * (kPlotBottom - kTop);
  }
};

bool plottable(std::optional<double> value) {
  return value && std::isfinite(*value) && *value > 0.0;
}

// 1-2-5 steps so that at most about 10 ticks fit.
long long x_step(double span) {
  long long step = 1;
  for (long long scale = 1; scale <= 100000; scale *= 10) {
    for (long long const factor : {1, 2, 5}) {
      step = factor * scale;
      if (span / static_cast<double>(step) <= 10.0) return step;
    }
  }
  return step;
}

std::vector<double> y_ticks(double log_min, double log_max) {
  std::vector<double> ticks;
  double const span = log_max - log_min;
  std::vector<double> mantissas{1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.0};
  if (span > 1.2) mantissas = {1.0, 2.0, 5.0};
  if (span > 2.5) mantissas = {1.0};
  for (int decade = static_cast<int>(std::floor(log_min)) - 1; decade <= static_cast<int>(std::ceil(log_max));
       ++decade) {
    for (double const mantissa : mantissas) {
      double const value = mantissa * std::pow(10.0, decade);
      double const log_value = std::log10(value);
      if (log_value >= log_min - 1e-9 && log_value <= log_max + 1e-9) ticks.push_back(value);
    }
  }
  if (ticks.size() < 2) {  // a narrow range: label its ends
    ticks = {std::pow(10.0, log_min), std::pow(10.0, log_max)};
  }
  return ticks;
}

std::string tick_label(double value) {
  return fmt::format("{:.3g}x", value);
}

Frame frame_of(RunReport const& report) {
  Frame frame;
  frame.x_min = 0.5;  // half a step of room around the first and the last marker
  frame.x_max = std::max<double>(2.0, static_cast<double>(report.evaluations.size())) + 0.5;
  double low = 1.0;  // the reference always shows
  double high = 1.0;
  for (RunReportEvaluation const& evaluation : report.evaluations) {
    for (auto const value : {evaluation.geomean_speedup, evaluation.best_so_far}) {
      if (!plottable(value) || evaluation.status != CandidateStatus::ok) continue;
      low = std::min(low, *value);
      high = std::max(high, *value);
    }
  }
  double const pad = std::max(0.04, (std::log10(high) - std::log10(low)) * 0.08);
  frame.log_min = std::log10(low) - pad;
  frame.log_max = std::log10(high) + pad;
  return frame;
}

std::string axes(Frame const& frame, std::size_t evaluations) {
  std::string svg;
  double const bottom = kHeight - kBottom;
  svg += fmt::format(R"(<rect class="plot-bg" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}"/>)", kLeft,
                     kTop, kWidth - kLeft - kRight, bottom - kTop);
  svg += fmt::format(R"(<rect class="fail-band" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}"/>)",
                     kLeft, kPlotBottom, kWidth - kLeft - kRight, kFailBand);
  for (double const tick : y_ticks(frame.log_min, frame.log_max)) {
    double const y = frame.y(tick);
    svg += fmt::format(R"(<line class="grid" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)", kLeft, y,
                       kWidth - kRight, y);
    svg += fmt::format(R"(<text class="tick" x="{:.1f}" y="{:.1f}" text-anchor="end">{}</text>)", kLeft - 6.0,
                       y + 4.0, tick_label(tick));
  }
  double const one = frame.y(1.0);
  svg += fmt::format(R"(<line class="reference" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)", kLeft,
                     one, kWidth - kRight, one);
  long long const step = x_step(frame.x_max - frame.x_min);
  auto const last = static_cast<long long>(frame.x_max);
  for (long long index = step > 1 ? step : 1; index <= last; index += step) {
    double const x = frame.x(static_cast<double>(index));
    svg += fmt::format(R"(<line class="axis" x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}"/>)", x, bottom,
                       x, bottom + 5.0);
    svg += fmt::format(R"(<text class="tick" x="{:.1f}" y="{:.1f}" text-anchor="middle">{}</text>)", x,
                       bottom + 18.0, index);
  }
  svg += fmt::format(R"(<line class="axis" x1="{0:.1f}" y1="{1:.1f}" x2="{2:.1f}" y2="{1:.1f}"/>)", kLeft,
                     bottom, kWidth - kRight);
  svg += fmt::format(R"(<line class="axis" x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}"/>)", kLeft,
                     kTop, bottom);
  svg += fmt::format(
      R"(<text class="label" x="{:.1f}" y="{:.1f}" text-anchor="middle">evaluation ({} in all)</text>)",
      (kLeft + kWidth - kRight) / 2.0, kHeight - 12.0, evaluations);
  svg += fmt::format(
      R"svg(<text class="label" transform="translate(16 {:.1f}) rotate(-90)" text-anchor="middle">geomean speedup (log scale)</text>)svg",
      (kTop + bottom) / 2.0);
  return svg;
}

std::string best_line(Frame const& frame, RunReport const& report) {
  std::string points;
  std::optional<double> last;
  for (RunReportEvaluation const& evaluation : report.evaluations) {
    if (!plottable(evaluation.best_so_far)) continue;
    double const x = frame.x(static_cast<double>(evaluation.index));
    double const y = frame.y(*evaluation.best_so_far);
    if (last) points += fmt::format("{:.1f},{:.1f} ", x, *last);  // a step: flat until it improves
    points += fmt::format("{:.1f},{:.1f} ", x, y);
    last = y;
  }
  if (points.empty()) return "";
  return fmt::format(R"(<polyline class="best" points="{}"/>)", points);
}

std::string marker(Frame const& frame, RunReportEvaluation const& evaluation) {
  double const x = frame.x(static_cast<double>(evaluation.index));
  std::string const title = markup_escape(fmt::format(
      "#{} candidate {} ({}): {} {}", evaluation.index, evaluation.candidate.value(), evaluation.tier,
      to_string(evaluation.status), run_report_detail::ratio_text(evaluation.geomean_speedup)));
  if (evaluation.status != CandidateStatus::ok) {
    double const y = kPlotBottom + kFailBand / 2.0;
    return fmt::format(
        R"(<path class="pt fail" data-eval="{}" d="M{:.1f} {:.1f}l7 7m0 -7l-7 7"><title>{}</title></path>)",
        evaluation.index, x - 3.5, y - 3.5, title);
  }
  if (!plottable(evaluation.geomean_speedup)) {  // ok but nothing timed (verify-only sizes)
    return fmt::format(
        R"(<circle class="pt untimed" data-eval="{}" cx="{:.1f}" cy="{:.1f}" r="3"><title>{}</title></circle>)",
        evaluation.index, x, kPlotBottom + kFailBand / 2.0, title);
  }
  double const y = frame.y(*evaluation.geomean_speedup);
  if (evaluation.tier == "confirm") {
    return fmt::format(
        R"(<path class="pt confirm" data-eval="{}" d="M{:.1f} {:.1f}l5 5l-5 5l-5 -5z"><title>{}</title></path>)",
        evaluation.index, x, y - 5.0, title);
  }
  return fmt::format(
      R"(<circle class="pt ok" data-eval="{}" cx="{:.1f}" cy="{:.1f}" r="3.2"><title>{}</title></circle>)",
      evaluation.index, x, y, title);
}

}  // namespace

std::string render_progress_svg(RunReport const& report) {
  Frame const frame = frame_of(report);
  std::string svg = fmt::format(
      R"(<svg class="plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {:g} {:g}" role="img" )"
      R"(aria-label="best-so-far geomean speedup against evaluations">)",
      kWidth, kHeight);
  svg += axes(frame, report.evaluations.size());
  if (report.evaluations.empty()) {
    svg += fmt::format(
        R"(<text class="label" x="{:.1f}" y="{:.1f}" text-anchor="middle">no evaluations recorded</text>)",
        kWidth / 2.0, kHeight / 2.0);
  }
  svg += best_line(frame, report);
  for (RunReportEvaluation const& evaluation : report.evaluations) svg += marker(frame, evaluation);
  svg += "</svg>";
  return svg;
}

}  // namespace kopt
