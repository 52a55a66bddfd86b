// `kopt bench`'s renderings (module bench_report): the terminal table, Markdown and the SVG plot show every
// row, its note, and the suite's goals met or missed (docs/bench.md).
#include "kopt/bench_report.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/bench_rows.hpp"

namespace kopt {
namespace bench_report_test {

TEST(BenchReport, RenderingsShowRowsNotesAndGoals) {
  BenchSummary s;
  s.device = "NVIDIA H200";
  auto ok = test::bench_row("llm/relu-f32", "llm", "activation", "large", 2.5);
  auto kept = test::bench_row("sparse/spmm-f32", "sparse", "spmm_csr", "large", 1.0);
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

}  // namespace bench_report_test
}  // namespace kopt
