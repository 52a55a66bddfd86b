// `kopt task check` for people: how the reference (and baseline) behave on every size case.
#include <fmt/format.h>

#include "kopt/report.hpp"
#include "report/render_shared.hpp"
#include "report/text_table.hpp"

namespace kopt {
namespace {

using report_text::Align;
using report_text::Cell;
using report_text::Style;

std::string optional_si(std::optional<double> const& value, std::string_view unit) {
  return value ? format_si(*value, unit) : std::string("-");
}

}  // namespace

std::string render_task_check(TaskCheckReport const& report, RenderOptions const& options) {
  std::string out = report_text::key_value_lines({
      {"task", report.task},
      {"device", report_text::device_summary(report.device)},
      {"seed", std::to_string(report.seed)},
  });
  bool baseline = false;
  for (auto const& size : report.sizes) baseline = baseline || size.baseline.has_value();

  std::vector<report_text::Column> columns{{"size", Align::left},
                                           {"elements", Align::right},
                                           {"bytes", Align::right},
                                           {"flops", Align::right},
                                           {"ref", Align::right}};
  if (baseline) columns.push_back({"baseline", Align::right});
  columns.push_back({"checks", Align::left});
  columns.push_back({"note", Align::left});
  report_text::TextTable table(std::move(columns));

  bool problems = !report.warnings.empty();
  for (auto const& size : report.sizes) {
    double elements = 0.0;
    for (auto const& [name, count] : size.buffer_elements) elements += static_cast<double>(count);
    std::vector<Cell> row{Cell(size.size), Cell(format_si(elements, "")), Cell(optional_si(size.bytes, "B")),
                          Cell(optional_si(size.flops, "FLOP")),
                          Cell(report_text::timing_cell(size.reference))};
    if (baseline) row.emplace_back(report_text::timing_cell(size.baseline));
    std::vector<std::string> checks;
    if (!size.deterministic) checks.emplace_back("NONDETERMINISTIC");
    if (size.reference_constant) checks.emplace_back("constant output");
    bool clean = checks.empty();
    problems = problems || !clean;
    row.emplace_back(clean ? std::string("ok") : fmt::format("{}", fmt::join(checks, ", ")),
                     clean ? Style::good : Style::bad);
    row.emplace_back(size.note);
    table.add_row(std::move(row));
  }
  out += "\n" + table.render("", options.color);

  if (options.verbose) {
    for (auto const& size : report.sizes) {
      std::vector<std::string> buffers;
      for (auto const& [name, count] : size.buffer_elements)
        buffers.push_back(fmt::format("{}={}", name, count));
      out += fmt::format("buffers '{}': {}\n", size.size, fmt::join(buffers, " "));
    }
  }
  for (auto const& warning : report.warnings) {
    out += report_text::styled("warning: ", Style::warn, options.color) + warning + "\n";
  }
  if (problems) {
    out += report_text::styled("the task needs attention: see the checks and warnings above", Style::bad,
                               options.color);
  } else {
    out += report_text::styled(fmt::format("ok: the reference ran on {} size{}", report.sizes.size(),
                                           report.sizes.size() == 1 ? "" : "s"),
                               Style::good, options.color);
  }
  out += "\n";
  return out;
}

}  // namespace kopt
