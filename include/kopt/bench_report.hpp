// `kopt bench`'s renderings of a suite benchmark (module bench_report, output layer): the terminal table,
// Markdown and an SVG plot, each with the evidence for the rows that miss a goal. The data and its
// kopt.bench/1 JSON (written and read back to merge parts) are kopt/suite_bench.hpp's.
#pragma once

#include <string>

#include "kopt/suite_bench.hpp"

namespace kopt {

std::string render_bench_text(BenchSummary const& summary);  // the terminal table
std::string render_bench_markdown(BenchSummary const& summary);
std::string render_bench_svg(BenchSummary const& summary);  // speedup and vendor ratio per task, log scale

}  // namespace kopt
