// The bench table for people: the same columns as plain text (terminal) and as Markdown (docs).
#include <fmt/format.h>

#include <algorithm>

#include "bench_report/bench_render.hpp"
#include "kopt/bench_report.hpp"
#include "kopt/report.hpp"

namespace kopt {
namespace {

std::vector<std::string> const kHeader{"task",   "size",    "status",    "reference", "kopt",    "spread",
                                       "vendor", "speedup", "vs vendor", "% SOL",     "strategy"};

std::vector<std::string> cells(BenchRow const& r) {
  auto const time = [](std::optional<double> us) { return us ? format_duration_us(*us) : std::string("-"); };
  auto const ratio = [](std::optional<double> v) { return v ? format_ratio(*v) : std::string("-"); };
  return {r.task,
          r.size,
          r.status,
          time(r.reference_us),
          time(r.best_us),
          r.best_spread ? fmt::format("{:.1f}%", *r.best_spread * 100.0) : "-",
          time(r.baseline_us),
          ratio(r.speedup),
          ratio(r.vs_vendor),
          r.pct_of_sol ? fmt::format("{:.0f}%{}", *r.pct_of_sol, r.memory_bound ? " mem" : "") : "-",
          r.strategy.empty() ? "-" : r.strategy};
}

std::string footer(BenchSummary const& summary, bool markdown) {
  std::string out = markdown ? "\n" : "";
  std::string geo;
  for (auto const& [scenario, value] : summary.geomean_by_scenario)
    geo += fmt::format("{} {}, ", scenario, format_ratio(value));
  out += fmt::format("{}Geomean speedup over the reference: {}{}\n", markdown ? "**" : "",
                     summary.geomean_overall ? format_ratio(*summary.geomean_overall) : "-",
                     markdown ? "**" : "");
  if (!geo.empty())
    out += fmt::format("{}by scenario: {}\n", markdown ? "\n" : "  ", geo.substr(0, geo.size() - 2));
  std::string notes;
  std::string last;
  for (auto const& r : summary.rows) {
    if (r.note.empty()) continue;
    std::string const line = r.task + (r.size == "-" ? "" : " " + r.size) + ": " + r.note;
    if (r.status == "error" && last == r.task) continue;
    last = r.task;
    std::string flat = line;
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    if (flat.size() > 400) flat = flat.substr(0, 400) + " ...";
    notes += (markdown ? "- " : "  ") + flat + "\n";
  }
  if (!notes.empty()) out += (markdown ? "\nNotes:\n\n" : "\nNotes:\n") + notes;
  out += markdown ? "\n| goal | met | detail |\n|---|---|---|\n" : "\nGoals:\n";
  for (auto const& g : summary.goals) {
    out += markdown ? fmt::format("| {} | {} | {} |\n", g.name, g.met ? "yes" : "**no**", g.detail)
                    : fmt::format("  [{}] {}: {}\n", g.met ? "met" : "MISSED", g.name, g.detail);
  }
  return out + bench_detail::render_evidence(summary, markdown);
}

}  // namespace

std::string render_bench_text(BenchSummary const& summary) {
  if (summary.torch) return bench_detail::render_torch_bench(summary, false);
  std::vector<std::vector<std::string>> table{kHeader};
  for (auto const& r : summary.rows) table.push_back(cells(r));
  std::vector<std::size_t> width(kHeader.size(), 0);
  for (auto const& row : table) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out = fmt::format("kopt bench on {} ({}), {:.0f} s\n", summary.device, summary.started_at,
                                summary.elapsed_seconds);
  for (auto const& row : table) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) line += fmt::format("{:<{}}  ", row[i], width[i]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out + footer(summary, false);
}

std::string render_bench_markdown(BenchSummary const& summary) {
  if (summary.torch) return bench_detail::render_torch_bench(summary, true);
  std::string out = fmt::format(
      "# kopt bench\n\n{} ({}), {:.0f} s. Times are medians; spread is the IQR / median "
      "of the kopt kernel's samples; vs vendor > 1 means faster than the vendor library.\n\n",
      summary.device, summary.started_at, summary.elapsed_seconds);
  out += "|";
  for (auto const& h : kHeader) out += " " + h + " |";
  out += "\n|";
  for (std::size_t i = 0; i < kHeader.size(); ++i) out += i < 3 || i == kHeader.size() - 1 ? "---|" : "---:|";
  out += "\n";
  for (auto const& r : summary.rows) {
    out += "|";
    for (auto const& c : cells(r)) out += " " + c + " |";
    out += "\n";
  }
  return out + footer(summary, true);
}

}  // namespace kopt
