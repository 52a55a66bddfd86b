// `kopt bench`'s renderings (module bench_report): the terminal table, Markdown and the SVG plot show every
// row, its note, and the suite's goals met or missed (docs/bench.md).
#include "kopt/bench_report.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kopt {
namespace {

BenchRow row(std::string task, std::string scenario, std::string family, std::string size, double speedup) {
  BenchRow r;
  r.task = std::move(task);
  r.scenario = std::move(scenario);
  r.family = std::move(family);
  r.size = std::move(size);
  r.status = "ok";
  r.reference_us = 100.0 * speedup;
  r.best_us = 100.0;
  r.speedup = speedup;
  r.largest = true;
  return r;
}

TEST(BenchReport, RenderingsShowRowsNotesAndGoals) {
  BenchSummary s;
  s.device = "NVIDIA H200";
  auto ok = row("llm/relu-f32", "llm", "activation", "large", 2.5);
  auto kept = row("sparse/spmm-f32", "sparse", "spmm_csr", "large", 1.0);
  kept.strategy = "reference kept";
  kept.note = "the best strategy (spmm_csr_rowgroup) measured 0.37x on this size; the reference is kept";
  s.rows = {ok, kept};
  summarise_bench(s);
  auto const text = render_bench_text(s);
  EXPECT_NE(text.find("llm/relu-f32"), std::string::npos);
  EXPECT_NE(text.find("2.50x"), std::string::npos);
  EXPECT_NE(text.find("reference kept"), std::string::npos);
  EXPECT_NE(text.find("measured 0.37x"), std::string::npos);
  EXPECT_NE(text.find("[MISSED] geomean speedup"), std::string::npos);
  auto const md = render_bench_markdown(s);
  EXPECT_NE(md.find("| llm/relu-f32 | large | ok |"), std::string::npos) << md;
  EXPECT_NE(md.find("| geomean speedup over the reference >= 10x | **no** |"), std::string::npos);
  auto const svg = render_bench_svg(s);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("<title>2.50x</title>"), std::string::npos);
}

}  // namespace
}  // namespace kopt
