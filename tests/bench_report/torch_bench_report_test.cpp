// `kopt bench`'s renderings of a bench of PyTorch problems (docs/bench.md, "PyTorch problems"): the header
// (corpus and commit, GPU, precision, torch, torch.compile's mode), one row per problem at its `problem`
// size case, fast_p over eager and torch.compile, the geomeans and counts, and the flags with their reasons.
#include <gtest/gtest.h>

#include <string>

#include "kopt/bench_report.hpp"
#include "support/bench_rows.hpp"

namespace kopt {
namespace torch_bench_report_test {

BenchSummary torch_summary() {
  BenchSummary s;
  s.device = "NVIDIA H200";
  s.started_at = "2026-12-04T21:00:00Z";
  s.elapsed_seconds = 42;
  s.torch = TorchBenchHeader{"suites/pytorch", "f72bf81a0c1d", "fp32", "2.11.0", "default"};
  auto relu = test::torch_bench_row("level1/relu", "problem", 50, 100, 80, "ok");
  auto relu_small = test::torch_bench_row("level1/relu", "small", 5, 10, 8, "ok");
  auto constant = test::torch_bench_row("level2/gemm_dropout_mean", "problem", 1, 100, 50, "ok");
  constant.flags.push_back("degenerate: the output does not depend on the inputs");
  auto broken = test::torch_bench_row("level3/mlp", "-", 0, 0, 0, "import_error");
  broken.note = "problem.py:4: syntax error";
  auto slow = test::torch_bench_row("level1/softmax", "problem", 200, 100, 0, "ok");
  slow.note = "no torch.compile timing: torch.compile failed: a compile error";
  s.rows = {relu, relu_small, slow, constant, broken};
  summarise_bench(s);
  return s;
}

TEST(TorchBenchReport, TheTextHeaderTableAndMetrics) {
  auto const text = render_bench_text(torch_summary());
  EXPECT_NE(text.find("PyTorch problems: suites/pytorch (4 problems, kopt corpus at commit f72bf81a0c1d)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("GPU NVIDIA H200; precision fp32; torch 2.11.0; torch.compile mode \"default\"; "
                      "2026-12-04T21:00:00Z"),
            std::string::npos);
  EXPECT_NE(text.find("at the `problem` size case"), std::string::npos);
  // One row per problem, at `problem`: relu's small size case is not shown.
  EXPECT_EQ(text.find("5.00 µs"), std::string::npos) << text;
  EXPECT_NE(text.find("level1  relu "), std::string::npos) << text;
  EXPECT_NE(text.find("2.00x"), std::string::npos);  // relu vs eager
  EXPECT_NE(text.find("1.60x"), std::string::npos);  // relu vs torch.compile
  EXPECT_NE(text.find("degenerate"), std::string::npos);
  EXPECT_NE(text.find("level3  mlp "), std::string::npos);
  // fast_p: relu is the only unflagged problem faster than eager; softmax is correct (fast_0) but slower.
  EXPECT_NE(text.find("  0     2/4 (50.0%)      1/4 (25.0%)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  1     1/4 (25.0%)      1/4 (25.0%)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  2     0/4 (0.0%)       0/4 (0.0%)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Geomean speedup at the `problem` size case: 1.00x over eager (2 problems), 1.60x over "
                      "torch.compile (1 problem)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Problems 4: imported 3, correct 3, no applicable strategy 0, failed 1, flagged 1, "
                      "torch.compile without a timing 1"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("level2/gemm_dropout_mean: degenerate: the output does not depend on the inputs"),
            std::string::npos);
  EXPECT_NE(text.find("level3/mlp: problem.py:4: syntax error"), std::string::npos);
  EXPECT_EQ(text.find("Goals"), std::string::npos);
}

TEST(TorchBenchReport, TheMarkdownAndThePlot) {
  auto const s = torch_summary();
  auto const md = render_bench_markdown(s);
  EXPECT_EQ(md.rfind("# kopt bench: PyTorch problems\n", 0), 0u) << md;
  EXPECT_NE(
      md.find(
          "| level | problem | status | kopt | eager | compile | vs eager | vs compile | strategy | flags |"),
      std::string::npos);
  EXPECT_NE(
      md.find("| level1 | relu | ok | 50.0 µs | 100 µs | 80.0 µs | 2.00x | 1.60x | vectorized_map1 | - |"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("| 0.5 | 1/4 (25.0%) | 1/4 (25.0%) |"), std::string::npos) << md;
  EXPECT_NE(md.find("- level3/mlp: problem.py:4: syntax error"), std::string::npos);
  auto const svg = render_bench_svg(s);
  EXPECT_NE(svg.find("speedup over PyTorch eager (problem size)"), std::string::npos);
  EXPECT_NE(svg.find("kopt vs torch.compile"), std::string::npos);
  EXPECT_NE(svg.find("<title>2.00x</title>"), std::string::npos);
  EXPECT_EQ(svg.find("<title>2.00x</title>", svg.find("<title>2.00x</title>") + 1), std::string::npos)
      << "relu's small size case is plotted";
}

}  // namespace torch_bench_report_test
}  // namespace kopt
