#include <gtest/gtest.h>

#include <sstream>

#include "kopt/report.hpp"
#include "report/sample_reports.hpp"

namespace kopt {
namespace render_test {

std::vector<std::string> lines_of(std::string const& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The line of `text` that starts (after indentation) with `prefix`.
std::string line_starting(std::string const& text, std::string const& prefix) {
  for (auto const& line : lines_of(text)) {
    auto start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, prefix.size(), prefix) == 0) return line;
  }
  return {};
}

// Column where `cell` starts in `line`, counted in code points; npos when absent.
std::size_t column_of(std::string const& line, std::string const& cell) {
  auto pos = line.find(cell);
  if (pos == std::string::npos) return pos;
  std::size_t column = 0;
  for (std::size_t i = 0; i < pos; ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xC0U) != 0x80U) ++column;
  }
  return column;
}

std::size_t width_of(std::string const& text) {
  return column_of(text + "\x01", "\x01");
}

TEST(RenderEval, HeaderNamesTaskDeviceToolkitSeedTier) {
  std::string text = render_eval(testing::sample_eval_report());
  EXPECT_NE(line_starting(text, "task").find("softmax (/tasks/softmax)"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "device").find("NVIDIA H200, sm_90, 132 SMs"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "device").find("driver 13.0"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "toolkit").find("13.0"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "seed").find("18446744073709551557"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "tier").find("screen"), std::string::npos) << text;
}

TEST(RenderEval, OkCandidateTableHasExpectedCells) {
  std::string text = render_eval(testing::sample_eval_report());
  std::string header = line_starting(text, "size");
  for (char const* column : {"status", "max err", "ref", "cand", "speedup", "vs vendor", "% SOL"}) {
    EXPECT_NE(header.find(column), std::string::npos) << column << "\n" << text;
  }
  std::string small = line_starting(text, "small");
  EXPECT_NE(small.find("ok"), std::string::npos) << small;
  EXPECT_NE(small.find("1.2e-07"), std::string::npos) << small;
  EXPECT_NE(small.find("12.3 µs ± 412 ns"), std::string::npos) << small;
  EXPECT_NE(small.find("3.61 µs ± 20.0 ns"), std::string::npos) << small;
  EXPECT_NE(small.find("3.41x"), std::string::npos) << small;
  EXPECT_NE(small.find("1.20x"), std::string::npos) << small;
  EXPECT_NE(small.find("47.1%"), std::string::npos) << small;
  std::string large = line_starting(text, "large");
  EXPECT_NE(large.find("1.23 ms ± 50.0 µs"), std::string::npos) << large;
  EXPECT_NE(large.find("361 µs"), std::string::npos) << large;
  std::string odd = line_starting(text, "odd");
  EXPECT_NE(odd.find("verify-only"), std::string::npos) << odd;
  EXPECT_EQ(odd.find("µs"), std::string::npos) << odd;
  EXPECT_NE(
      text.find(
          "candidate fast.cu  (kernel mode, 40 registers, no spills, 4.10 kB static shared, build cached)"),
      std::string::npos)
      << text;
}

TEST(RenderEval, ColumnsAlign) {
  std::string text = render_eval(testing::sample_eval_report());
  std::string header = line_starting(text, "size");
  std::string small = line_starting(text, "small");
  std::string large = line_starting(text, "large");
  // Right-aligned columns end at the same column: "speedup" header and its cells.
  std::size_t header_end = column_of(header, "speedup") + 7;
  EXPECT_EQ(column_of(small, "3.41x") + 5, header_end) << text;
  EXPECT_EQ(column_of(large, "3.42x") + 5, header_end) << text;
  // Left-aligned status column starts at the same column.
  EXPECT_EQ(column_of(header, "status"), column_of(small, "ok"));
  EXPECT_EQ(column_of(header, "status"), column_of(large, "ok"));
  EXPECT_EQ(width_of(small), width_of(large));
}

TEST(RenderEval, VerdictLines) {
  auto report = testing::sample_eval_report();
  EXPECT_EQ(candidate_verdict(report.candidates[0]),
            "ok: 3.41x geomean over the reference on 2 timed sizes, 1.20x vs the vendor baseline");
  EXPECT_EQ(candidate_verdict(report.candidates[1]),
            "REJECTED wrong_output on size 'odd': 13 of 1000003 elements outside tolerance (atol 1e-05, rtol "
            "1e-05); first at index 1000000");
  EXPECT_EQ(candidate_verdict(report.candidates[2]), "REJECTED compile_error: NVRTC rejected the source");
  std::string text = render_eval(report);
  EXPECT_NE(text.find("  REJECTED wrong_output on size 'odd'"), std::string::npos) << text;
  EXPECT_NE(text.find("3 candidates: 1 ok, 2 rejected"), std::string::npos) << text;
}

TEST(RenderEval, FailedSizeShowsStatusAndDashes) {
  std::string text = render_eval(testing::sample_eval_report());
  // wrong.cu's "odd" row: the wrong_output status and its error, no timings.
  auto lines = lines_of(text);
  auto it = std::find_if(lines.begin(), lines.end(), [](auto const& l) {
    return l.find("wrong_output") != std::string::npos && l.find("odd") != std::string::npos &&
           l.find("REJECTED") == std::string::npos;
  });
  ASSERT_NE(it, lines.end()) << text;
  EXPECT_NE(it->find("0.25"), std::string::npos) << *it;
  EXPECT_NE(it->find("verify-only"), std::string::npos) << *it;
}

TEST(RenderEval, CompileErrorShowsIndentedDiagnostics) {
  std::string text = render_eval(testing::sample_eval_report());
  EXPECT_NE(text.find("  diagnostics:\n    broken.cu(3): error: identifier \"x\" is undefined\n"
                      "    1 error detected in the compilation\n"),
            std::string::npos)
      << text;
}

TEST(RenderEval, MissingBaselineDropsVendorColumn) {
  EvalReport report = testing::sample_eval_report();
  for (auto& size : report.candidates[0].sizes) {
    size.baseline.reset();
    size.vs_baseline.reset();
  }
  report.candidates.resize(1);
  std::string text = render_eval(report);
  EXPECT_EQ(text.find("vs vendor"), std::string::npos) << text;
  EXPECT_NE(text.find("ok: 3.41x geomean over the reference on 2 timed sizes\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("candidates:"), std::string::npos) << text;  // no summary for a single candidate
}

TEST(RenderEval, PhaseTimes) {
  std::string text = render_eval(testing::sample_eval_report());
  EXPECT_NE(
      text.find("phases: compile 13.2 ms (cached), load 1.20 ms, verify 45.0 ms, time 2.10 s (total 2.16 s)"),
      std::string::npos)
      << text;
}

TEST(RenderEval, ColourOnlyWhenAsked) {
  auto report = testing::sample_eval_report();
  EXPECT_EQ(render_eval(report).find('\x1b'), std::string::npos);
  std::string coloured = render_eval(report, RenderOptions{.color = true});
  EXPECT_NE(coloured.find("\x1b[31;1mREJECTED"), std::string::npos);
  EXPECT_NE(coloured.find("\x1b[32mok: 3.41x"), std::string::npos);
}

TEST(RenderEval, VerboseShowsSeedsAndGraphTiming) {
  std::string text = render_eval(testing::sample_eval_report(), RenderOptions{.verbose = true});
  EXPECT_NE(text.find("seeds 'small': 11 12 13 14"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "size").find("cand graph"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "small").find("3.20 µs"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "isolation").find("netns+rlimits"), std::string::npos) << text;
}

TEST(RenderEval, OkWithoutTimedSizes) {
  CandidateReport candidate = testing::ok_candidate();
  candidate.sizes.resize(0);
  candidate.sizes.push_back(testing::ok_candidate().sizes[2]);
  candidate.geomean_speedup.reset();
  EXPECT_EQ(candidate_verdict(candidate), "ok: verified on 1 size, none timed");
}

TEST(RenderTaskCheck, TableAndWarnings) {
  std::string text = render_task_check(testing::sample_task_check());
  EXPECT_NE(line_starting(text, "task").find("softmax"), std::string::npos) << text;
  std::string small = line_starting(text, "small");
  EXPECT_NE(small.find("2.10 M"), std::string::npos) << small;  // 2 x 1048576 elements
  EXPECT_NE(small.find("8.39 MB"), std::string::npos) << small;
  EXPECT_NE(small.find("12.3 µs ± 500 ns"), std::string::npos) << small;
  EXPECT_NE(small.find("4.33 µs"), std::string::npos) << small;  // baseline column
  std::string odd = line_starting(text, "odd");
  EXPECT_NE(odd.find("NONDETERMINISTIC, constant output"), std::string::npos) << odd;
  EXPECT_NE(odd.find("smaller than one wave"), std::string::npos) << odd;
  EXPECT_NE(text.find("warning: size 'odd': the reference's outputs are constant"), std::string::npos)
      << text;
  EXPECT_NE(text.find("the task needs attention"), std::string::npos) << text;
}

TEST(RenderTaskCheck, CleanTaskSaysOk) {
  TaskCheckReport report = testing::sample_task_check();
  report.sizes.resize(1);
  report.warnings.clear();
  std::string text = render_task_check(report);
  EXPECT_NE(text.find("ok: the reference ran on 1 size\n"), std::string::npos) << text;
}

TEST(RenderDoctor, WithoutGpuSaysWhatIsMissing) {
  std::vector<ToolStatus> tools{{"nvcc", true, "13.0", "/usr/local/cuda/bin/nvcc", ""},
                                {"NVRTC", false, "", "", "libnvrtc.so not found under /usr/local/cuda"},
                                {"ncu", false, "", "", ""}};
  std::string text =
      render_doctor(tools, std::nullopt, std::string("no CUDA device found (cudaGetDeviceCount: 100)"));
  EXPECT_NE(line_starting(text, "nvcc").find("found"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "NVRTC").find("MISSING"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "ncu").find("missing (optional)"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "GPU").find("not available: no CUDA device found"), std::string::npos)
      << text;
  EXPECT_NE(text.find("not ready:\n  - NVRTC: libnvrtc.so not found under /usr/local/cuda\n"
                      "  - no usable GPU: no CUDA device found"),
            std::string::npos)
      << text;
}

TEST(RenderDoctor, ReadyWithGpu) {
  std::vector<ToolStatus> tools{{"nvcc", true, "13.0", "/usr/local/cuda/bin/nvcc", ""}};
  std::string text = render_doctor(tools, testing::h200(), std::nullopt);
  EXPECT_NE(line_starting(text, "GPU").find("NVIDIA H200, sm_90"), std::string::npos) << text;
  EXPECT_NE(line_starting(text, "copy bandwidth").find("4.10 TB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("ready: kopt can compile"), std::string::npos) << text;
  EXPECT_EQ(line_starting(text, "peaks"), "") << "no calibration line unless doctor found out";

  DoctorFindings findings{tools, testing::h200(), std::nullopt,
                          "measured by `kopt calibrate` at 2026-11-30T12:00:00Z"};
  std::string const calibrated = render_doctor(findings, RenderOptions{});
  EXPECT_NE(line_starting(calibrated, "peaks").find("measured by `kopt calibrate`"), std::string::npos)
      << calibrated;
}

}  // namespace render_test
}  // namespace kopt

namespace kopt {
namespace render_test {

TEST(RenderEval, PhasesThatDidNotRunAreLeftOut) {
  std::string text = render_eval(testing::sample_eval_report());
  EXPECT_NE(text.find("  phases: compile 12.0 ms (total 12.0 ms)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  phases: compile 1.30 s, load 2.00 ms, verify 30.0 ms (total 1.33 s)\n"),
            std::string::npos)
      << text;
}

}  // namespace render_test
}  // namespace kopt
