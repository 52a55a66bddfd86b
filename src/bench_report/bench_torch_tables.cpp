// The bench of PyTorch problems for people (`kopt bench --torch`): the header (corpus, GPU, precision,
// torch, torch.compile's mode, date), one row per problem at its `problem` size case, fast_p over eager and
// over torch.compile, the geomeans and the counts, as plain text and as Markdown (docs/bench.md).
#include <fmt/format.h>

#include <algorithm>

#include "bench_report/bench_render.hpp"
#include "kopt/units.hpp"

namespace kopt::bench_detail {
namespace {

std::vector<std::string> const kTorchHeader{"level",   "problem",  "status",     "kopt",     "eager",
                                            "compile", "vs eager", "vs compile", "strategy", "flags"};

std::string time_text(std::optional<double> us) {
  return us ? format_duration_us(*us) : std::string("-");
}

std::optional<double> times_as_fast(std::optional<double> other_us, std::optional<double> kopt_us) {
  if (!other_us || !kopt_us || *kopt_us <= 0.0) return std::nullopt;
  return *other_us / *kopt_us;
}

std::string torch_ratio_text(std::optional<double> v) {
  return v ? format_ratio(*v) : std::string("-");
}

// "degenerate, suspicious": the kinds of a row's flags (their reasons go under "Flags").
std::string flag_kinds(BenchRow const& row) {
  std::string out;
  for (auto const& flag : row.flags) out += (out.empty() ? "" : ", ") + flag.substr(0, flag.find(':'));
  if (out.empty() && torch_row_flagged(row)) out = "suspicious";
  return out.empty() ? "-" : out;
}

// The problem's name without its level ("level1/relu" in level1: "relu").
std::string problem_name(BenchRow const& row) {
  std::string const prefix = row.scenario + "/";
  return row.task.starts_with(prefix) ? row.task.substr(prefix.size()) : row.task;
}

std::vector<std::string> torch_cells(BenchRow const& r) {
  return {r.scenario,
          problem_name(r),
          r.status,
          time_text(r.best_us),
          time_text(r.reference_us),
          time_text(r.baseline_us),
          torch_ratio_text(times_as_fast(r.reference_us, r.best_us)),
          torch_ratio_text(times_as_fast(r.baseline_us, r.best_us)),
          r.strategy.empty() ? "-" : r.strategy,
          flag_kinds(r)};
}

std::string header(BenchSummary const& s, bool markdown) {
  TorchBenchHeader const& h = *s.torch;
  std::string out = markdown ? "# kopt bench: PyTorch problems\n\n" : "";
  out += fmt::format("PyTorch problems: {} ({} problems, kopt corpus at commit {})\n", h.corpus,
                     s.torch_metrics.problems, h.corpus_commit.empty() ? "-" : h.corpus_commit);
  out += fmt::format("{}GPU {}; precision {}; torch {}; torch.compile mode \"{}\"; {}, {:.0f} s\n",
                     markdown ? "\n" : "", s.device.empty() ? "-" : s.device, h.precision,
                     h.torch_version.empty() ? "-" : h.torch_version, h.compile_mode, s.started_at,
                     s.elapsed_seconds);
  out += fmt::format(
      "{}Every time and ratio is at the `problem` size case (the problem's own constants), confirm-tier "
      "medians; eager is PyTorch eager, compile is torch.compile; vs eager = eager / kopt.\n\n",
      markdown ? "\n" : "");
  return out;
}

std::string torch_text_table(std::vector<BenchRow const*> const& rows) {
  std::vector<std::vector<std::string>> table{kTorchHeader};
  for (auto const* r : rows) table.push_back(torch_cells(*r));
  std::vector<std::size_t> width(kTorchHeader.size(), 0);
  for (auto const& row : table) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (auto const& row : table) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) line += fmt::format("{:<{}}  ", row[i], width[i]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string torch_markdown_table(std::vector<BenchRow const*> const& rows) {
  std::string out = "|";
  for (auto const& h : kTorchHeader) out += " " + h + " |";
  out += "\n|---|---|---|---:|---:|---:|---:|---:|---|---|\n";
  for (auto const* r : rows) {
    out += "|";
    for (auto const& c : torch_cells(*r)) out += " " + c + " |";
    out += "\n";
  }
  return out;
}

std::string problems(std::size_t count) {
  return fmt::format("{} problem{}", count, count == 1 ? "" : "s");
}

std::string share(std::size_t count, std::size_t of) {
  double const pct = of == 0 ? 0.0 : 100.0 * static_cast<double>(count) / static_cast<double>(of);
  return fmt::format("{}/{} ({:.1f}%)", count, of, pct);
}

// fast_p, the geomeans and the counts.
std::string metrics(TorchBenchMetrics const& m, bool markdown) {
  std::string out = fmt::format(
      "{}fast_p at the `problem` size case{}: the share of the {} problems whose kopt kernel verified "
      "on every size case, is not flagged, and is more than p times as fast\n\n",
      markdown ? "**" : "", markdown ? "**" : "", m.problems);
  out += markdown ? "| p | over eager | over torch.compile |\n|---:|---:|---:|\n"
                  : fmt::format("  {:<5} {:<16} {}\n", "p", "over eager", "over torch.compile");
  for (auto const& f : m.fast) {
    out += markdown ? fmt::format("| {:g} | {} | {} |\n", f.p, share(f.over_eager, m.problems),
                                  share(f.over_compile, m.problems))
                    : fmt::format("  {:<5g} {:<16} {}\n", f.p, share(f.over_eager, m.problems),
                                  share(f.over_compile, m.problems));
  }
  out += fmt::format(
      "\n{}Geomean speedup at the `problem` size case: {} over eager ({}), {} over torch.compile ({}){}\n",
      markdown ? "**" : "", torch_ratio_text(m.geomean_vs_eager), problems(m.geomean_eager_count),
      torch_ratio_text(m.geomean_vs_compile), problems(m.geomean_compile_count), markdown ? "**" : "");
  out += fmt::format(
      "{}Problems {}: imported {}, correct {}, no applicable strategy {}, failed {}, flagged {}, "
      "torch.compile "
      "without a timing {}\n",
      markdown ? "\n" : "", m.problems, m.imported, m.correct, m.no_strategy, m.failed, m.flagged,
      m.compile_missing);
  return out;
}

std::string flat_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '|', '/');
  if (text.size() > 400) text = text.substr(0, 400) + " ...";
  return text;
}

// Each problem row's flags with their reasons, then its note.
std::string notes(std::vector<BenchRow const*> const& rows, bool markdown) {
  std::string flags;
  std::string notes;
  for (auto const* r : rows) {
    for (auto const& f : r->flags)
      flags += fmt::format("{}{}: {}\n", markdown ? "- " : "  ", r->task, flat_line(f));
    if (!r->note.empty())
      notes += fmt::format("{}{}: {}\n", markdown ? "- " : "  ", r->task, flat_line(r->note));
  }
  std::string out;
  if (!flags.empty())
    out += (markdown ? "\nFlagged (shown, never counted as faster):\n\n"
                     : "\nFlagged (shown, never counted as faster):\n") +
           flags;
  if (!notes.empty()) out += (markdown ? "\nNotes:\n\n" : "\nNotes:\n") + notes;
  return out;
}

}  // namespace

std::string render_torch_bench(BenchSummary const& summary, bool markdown) {
  auto const rows = torch_problem_rows(summary.rows);
  std::string out = header(summary, markdown);
  out += markdown ? torch_markdown_table(rows) : torch_text_table(rows);
  out += "\n" + metrics(summary.torch_metrics, markdown);
  out += notes(rows, markdown);
  return out + render_evidence(summary, markdown);
}

}  // namespace kopt::bench_detail
