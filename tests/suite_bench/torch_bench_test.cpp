// `kopt bench` on PyTorch problems (docs/bench.md, "PyTorch problems"), on the CPU: fast_p and the geomeans
// from hand-made rows (none correct, torch.compile missing, ties at p, flagged rows), finding problems in a
// folder, the kopt.bench/1 `torch` object and its round trip, the bench loop on a fake evaluator (an import
// error row, a kernel slower than eager reported as measured, a degenerate problem flagged), and the import
// through kopt_torch (skipped visibly without a Python that has torch).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <fstream>

#include "kopt/store.hpp"
#include "kopt/suite_bench.hpp"
#include "kopt/text.hpp"
#include "kopt/torch_import.hpp"
#include "kopt/torch_python.hpp"
#include "propose/propose_fixtures.hpp"
#include "support/bench_rows.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace torch_bench_test {

namespace fs = std::filesystem;

using test::torch_bench_row;

TorchFastP const& fast(TorchBenchMetrics const& m, double p) {
  for (auto const& f : m.fast) {
    if (f.p == p) return f;
  }
  throw std::logic_error("no fast_p row");
}

TEST(TorchBench, NoCorrectProblemGivesZeroesAndNoGeomean) {
  auto error = torch_bench_row("level1/a", "-", 0, 0, 0, "error");
  auto wrong = torch_bench_row("level1/b", "problem", 0, 0, 0, "wrong_output");
  auto none = torch_bench_row("level2/c", "-", 0, 0, 0, "no_strategy");
  auto import = torch_bench_row("level3/d", "-", 0, 0, 0, "import_error");
  auto const m = torch_bench_metrics({error, wrong, none, import});
  EXPECT_EQ(m.problems, 4u);
  EXPECT_EQ(m.imported, 3u);
  EXPECT_EQ(m.correct, 0u);
  EXPECT_EQ(m.no_strategy, 1u);
  EXPECT_EQ(m.failed, 3u);  // error, wrong_output, import_error
  ASSERT_EQ(m.fast.size(), 5u);
  for (auto const& f : m.fast) {
    EXPECT_EQ(f.over_eager, 0u);
    EXPECT_EQ(f.over_compile, 0u);
  }
  EXPECT_FALSE(m.geomean_vs_eager);
  EXPECT_FALSE(m.geomean_vs_compile);
  EXPECT_EQ(torch_bench_metrics({}).problems, 0u);
}

TEST(TorchBench, FastPIsStrictlyAboveTheThresholdAtTheProblemSize) {
  // a: exactly 1x eager and 2x compile at `problem` (10x at `small`, which is not judged).
  // b: exactly 2x eager, 0.5x compile. c: 0.5x eager exactly, no compile timing.
  std::vector<BenchRow> rows{torch_bench_row("level1/a", "problem", 100, 100, 200),
                             torch_bench_row("level1/a", "small", 1, 10, 10),
                             torch_bench_row("level1/b", "problem", 50, 100, 25),
                             torch_bench_row("level2/c", "problem", 200, 100, 0)};
  auto const m = torch_bench_metrics(rows);
  EXPECT_EQ(m.problems, 3u);
  EXPECT_EQ(m.correct, 3u);
  EXPECT_EQ(m.compile_missing, 1u);
  EXPECT_EQ(fast(m, 0.0).over_eager, 3u);
  EXPECT_EQ(fast(m, 0.0).over_compile, 2u);  // c's compile failed: never faster over compile
  EXPECT_EQ(fast(m, 0.5).over_eager, 2u);    // c is exactly 0.5x: not above
  EXPECT_EQ(fast(m, 0.5).over_compile, 1u);  // b is exactly 0.5x compile
  EXPECT_EQ(fast(m, 1.0).over_eager, 1u);    // a is exactly 1x: not above
  EXPECT_EQ(fast(m, 1.0).over_compile, 1u);
  EXPECT_EQ(fast(m, 1.5).over_eager, 1u);
  EXPECT_EQ(fast(m, 2.0).over_eager, 0u);  // b is exactly 2x
  EXPECT_EQ(fast(m, 2.0).over_compile, 0u);
  ASSERT_TRUE(m.geomean_vs_eager);
  EXPECT_NEAR(*m.geomean_vs_eager, std::cbrt(1.0 * 2.0 * 0.5), 1e-12);
  EXPECT_EQ(m.geomean_eager_count, 3u);
  ASSERT_TRUE(m.geomean_vs_compile);
  EXPECT_NEAR(*m.geomean_vs_compile, std::sqrt(2.0 * 0.5), 1e-12);
  EXPECT_EQ(m.geomean_compile_count, 2u);
}

TEST(TorchBench, AProblemIsCorrectOnlyWhenEverySizeVerified) {
  std::vector<BenchRow> rows{torch_bench_row("level1/a", "problem", 10, 100, 100),
                             torch_bench_row("level1/a", "small", 0, 0, 0, "wrong_output")};
  auto const m = torch_bench_metrics(rows);
  EXPECT_EQ(m.correct, 0u);
  EXPECT_EQ(m.failed, 1u);
  EXPECT_EQ(fast(m, 0.0).over_eager, 0u);
}

TEST(TorchBench, FlaggedProblemsAreCountedButNeverFaster) {
  auto degenerate = torch_bench_row("level1/a", "problem", 10, 100, 100);
  degenerate.flags.push_back("degenerate: the output does not depend on the inputs");
  auto huge = torch_bench_row("level1/b", "problem", 0.01, 100, 100);  // 10000x eager, no flag written
  auto fine = torch_bench_row("level1/c", "problem", 50, 100, 100);
  auto const m = torch_bench_metrics({degenerate, huge, fine});
  EXPECT_TRUE(torch_row_flagged(huge));
  EXPECT_FALSE(torch_row_flagged(fine));
  EXPECT_EQ(m.problems, 3u);
  EXPECT_EQ(m.correct, 3u);
  EXPECT_EQ(m.flagged, 2u);
  EXPECT_EQ(fast(m, 0.0).over_eager, 1u);
  EXPECT_EQ(fast(m, 1.0).over_eager, 1u);
  ASSERT_TRUE(m.geomean_vs_eager);
  EXPECT_NEAR(*m.geomean_vs_eager, 2.0, 1e-12);
  EXPECT_EQ(m.geomean_eager_count, 1u);
}

void write(fs::path const& path, std::string const& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

constexpr char kProblem[] =
    "import torch\n\n\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return "
    "torch.relu(x)\n\n\n"
    "n = 64\n\n\ndef get_inputs():\n    return [torch.rand(n)]\n\n\ndef get_init_inputs():\n    return []\n";

TEST(TorchBench, FindsProblemsRecursivelySortedAndTellsThemFromASuite) {
  test::TempDir dir;
  fs::path const root = dir.path() / "corpus";
  write(root / "level2" / "b.py", kProblem);
  write(root / "level1" / "a.py", kProblem);
  write(root / "level1" / "helpers.py", "def helper():\n    return 1\n# class Model is not defined here\n");
  write(root / "level1" / "notes.txt", "class Model(x):\n");
  EXPECT_TRUE(is_torch_corpus({root}));
  auto problems = discover_torch_problems({root}, {});
  ASSERT_TRUE(problems) << problems.error().message;
  ASSERT_EQ(problems->size(), 2u);
  EXPECT_EQ((*problems)[0].id, "level1/a");
  EXPECT_EQ((*problems)[0].scenario, "level1");
  EXPECT_EQ((*problems)[0].dir, fs::absolute(root / "level1" / "a.py"));
  EXPECT_EQ((*problems)[1].id, "level2/b");
  auto filtered = discover_torch_problems({root}, {"level2/"});
  ASSERT_TRUE(filtered);
  ASSERT_EQ(filtered->size(), 1u);
  EXPECT_EQ((*filtered)[0].id, "level2/b");
  // A problem given as a file: its folder names the level.
  auto one = discover_torch_problems({root / "level1" / "a.py"}, {});
  ASSERT_TRUE(one);
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].id, "a");
  EXPECT_EQ((*one)[0].scenario, "level1");
  EXPECT_TRUE(is_torch_corpus({root / "level1" / "a.py"}));
  auto not_problem = discover_torch_problems({root / "level1" / "helpers.py"}, {});
  ASSERT_FALSE(not_problem);
  EXPECT_NE(not_problem.error().message.find("helpers.py: not a PyTorch problem"), std::string::npos);
  // A folder with a task.toml is a suite, even with problems beside it.
  write(dir.path() / "suite" / "algebra" / "t" / "task.toml", "\n");
  write(dir.path() / "suite" / "pytorch" / "a.py", kProblem);
  EXPECT_FALSE(is_torch_corpus({dir.path() / "suite"}));
  EXPECT_FALSE(is_torch_corpus({dir.path() / "suite" / "algebra"}));
}

TEST(TorchBench, TheTorchObjectRoundTripsAndMerges) {
  BenchSummary s;
  s.device = "NVIDIA H200";
  s.started_at = "2026-12-04T20:00:00Z";
  s.torch = TorchBenchHeader{"suites/pytorch", "abc123", "fp32", "2.11.0", "default"};
  auto flagged = torch_bench_row("level1/a", "problem", 10, 100, 100);
  flagged.flags.push_back("degenerate: constant output");
  s.rows = {flagged, torch_bench_row("level1/b", "problem", 50, 100, 0)};
  summarise_bench(s);
  EXPECT_TRUE(s.goals.empty());
  auto const json = bench_to_json(s);
  EXPECT_EQ(json["schema"], "kopt.bench/1");
  ASSERT_TRUE(json.contains("torch"));
  auto const& t = json["torch"];
  EXPECT_EQ(t["corpus_commit"], "abc123");
  EXPECT_EQ(t["size_case"], "problem");
  EXPECT_EQ(t["problems"], 2);
  EXPECT_EQ(t["flagged"], 1);
  EXPECT_EQ(t["compile_missing"], 1);
  EXPECT_EQ(t["fast_p"][0]["p"], 0.0);
  EXPECT_DOUBLE_EQ(t["fast_p"][0]["over_eager"].get<double>(), 0.5);
  EXPECT_EQ(t["fast_p"][0]["over_compile_count"], 0);
  EXPECT_DOUBLE_EQ(t["geomean_speedup_vs_eager"].get<double>(), 2.0);
  EXPECT_TRUE(t["geomean_speedup_vs_compile"].is_null());
  EXPECT_EQ(json["rows"][0]["flags"][0], "degenerate: constant output");
  auto back = bench_from_json(json, "bench.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(bench_to_json(*back), json);
  auto bad = json;
  bad["rows"][0]["flags"] = "degenerate";
  auto const error = bench_from_json(bad, "bench.json");
  ASSERT_FALSE(error);
  EXPECT_EQ(error.error().message, "bench.json: rows[0].flags: expected an array of strings");
  // A suite bench has no torch object; parts of a PyTorch bench merge into one with both headers' values.
  BenchSummary suite;
  EXPECT_FALSE(bench_to_json(suite).contains("torch"));
  BenchSummary bf16 = s;
  bf16.torch->precision = "bf16";
  bf16.rows = {torch_bench_row("level2/c", "problem", 10, 100, 100)};
  auto const merged = merge_benches({s, bf16, s});
  ASSERT_TRUE(merged.torch);
  EXPECT_EQ(merged.torch->precision, "fp32, bf16");
  EXPECT_EQ(merged.torch->corpus, "suites/pytorch");
  EXPECT_EQ(merged.torch_metrics.problems, 3u);
}

// A task imported from a PyTorch problem, as the fake evaluator takes it: family elementwise (the library's
// one strategy applies), sizes problem and small.
std::string torch_task_toml() {
  std::string toml = test::add_task_toml("n");
  toml.replace(toml.find("name = \"small\""), 14, "name = \"problem\"");
  std::string const cuda_reference = "[reference]\nsource = \"reference.cu\"";
  toml.replace(
      toml.find(cuda_reference), cuda_reference.size(),
      "[[sizes]]\nname = \"small\"\nn = 100\n[reference]\ntorch = \"problem.py\"\nprecision = \"fp32\"");
  return toml;
}

TEST(TorchBench, TheLoopReportsImportErrorsKernelsAsMeasuredAndDegenerateProblems) {
  test::TempDir dir;
  test::write_file(dir.path() / "lib" / "common" / "strategy.cuh", "// common\n");
  test::write_file(
      dir.path() / "lib" / "g" / "strategies.toml",
      "[[strategy]]\nname = \"tiles\"\nfamilies = [\"elementwise\"]\ntemplate = \"tiles.cu\"\n"
      "signature = \"void (T* c, const T* a, const T* b, int n)\"\ndescription = \"Knob TILE.\"\n"
      "applies_when = \"Always.\"\n");
  test::write_file(
      dir.path() / "lib" / "g" / "tiles.cu",
      "// kopt:knob TILE = [1, 2]\nextern \"C\" __global__ void {{ENTRY}}({{T}}* c, const {{T}}* a, "
      "const {{T}}* b, int n) {}\n");
  for (auto const* name : {"slow_fp32", "constant_fp32", "unknown_fp32"}) {
    test::write_file(dir.path() / "tasks" / "level1" / name / "task.toml", torch_task_toml());
    test::write_file(dir.path() / "tasks" / "level1" / name / "problem.py", kProblem);
  }
  // The same launcher without a family: the library's strategy fits its contract, but nothing says it
  // computes what the module does, so the bench does not try it.
  std::string familyless = torch_task_toml();
  familyless.erase(familyless.find("family = \"elementwise\"\n"), 23);
  test::write_file(dir.path() / "tasks" / "level1" / "unknown_fp32" / "task.toml", familyless);
  test::write_file(
      dir.path() / "tasks" / "level1" / "constant_fp32" / "torch_abi.json",
      R"({"schema": "kopt.torch_abi/1", "torch": "2.11.0", "degenerate": "the output is all zeros"})");
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  std::vector<SuiteTask> tasks{
      SuiteTask{dir.path() / "corpus" / "level1" / "broken.py", "level1/broken", "level1",
                "broken.py:4: syntax error"},
      SuiteTask{dir.path() / "tasks" / "level1" / "constant_fp32", "level1/constant", "level1", ""},
      SuiteTask{dir.path() / "tasks" / "level1" / "slow_fp32", "level1/slow", "level1", ""},
      SuiteTask{dir.path() / "tasks" / "level1" / "unknown_fp32", "level1/unknown", "level1", ""}};
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  // Every configuration is half as fast as eager (200 us against 100 us); torch.compile at 80 us.
  FakeCandidateEvaluator fake([](std::map<std::string, std::string, std::less<>> const&) {
    return FakeResult{CandidateStatus::ok, "",           {200.0, 20.0}, {100.0, 10.0}, {},
                      std::nullopt,        std::nullopt, {80.0, 8.0}};
  });
  BenchOptions options;
  options.propose.budget = 2;
  options.propose.search = "exhaustive";
  options.torch = TorchBenchHeader{"corpus", "-", "fp32", "-", "default"};
  auto summary = run_suite_bench(tasks, *library, options, fake, *store);
  ASSERT_TRUE(summary) << summary.error().message;
  ASSERT_TRUE(summary->torch);
  EXPECT_EQ(summary->torch->torch_version, "2.11.0");
  ASSERT_EQ(summary->rows.size(), 6u);
  auto const& broken = summary->rows[0];
  EXPECT_EQ(broken.status, "import_error");
  EXPECT_EQ(broken.note, "broken.py:4: syntax error");
  auto const& constant = summary->rows[1];
  EXPECT_EQ(constant.size, "problem");
  ASSERT_EQ(constant.flags.size(), 1u);
  EXPECT_EQ(constant.flags[0], "degenerate: the output is all zeros");
  auto const& slow = summary->rows[3];
  EXPECT_EQ(slow.task, "level1/slow");
  EXPECT_EQ(slow.size, "problem");
  EXPECT_EQ(slow.strategy,
            "tiles");  // not "reference kept": a PyTorch problem reports the kernel as measured
  ASSERT_TRUE(slow.speedup);
  EXPECT_NEAR(*slow.speedup, 0.5, 1e-9);
  EXPECT_NEAR(*slow.vs_vendor, 0.4, 1e-9);
  EXPECT_TRUE(slow.flags.empty());
  auto const& unknown = summary->rows[5];
  EXPECT_EQ(unknown.task, "level1/unknown");
  EXPECT_EQ(unknown.status, "no_strategy");
  EXPECT_NE(unknown.note.find("no family of the library matches this problem"), std::string::npos)
      << unknown.note;
  auto const& m = summary->torch_metrics;
  EXPECT_EQ(m.problems, 4u);
  EXPECT_EQ(m.imported, 3u);
  EXPECT_EQ(m.correct, 2u);
  EXPECT_EQ(m.no_strategy, 1u);
  EXPECT_EQ(m.failed, 1u);
  EXPECT_EQ(m.flagged, 1u);
  EXPECT_EQ(fast(m, 0.0).over_eager, 1u);
  EXPECT_EQ(fast(m, 0.5).over_eager, 0u);  // exactly 0.5x
  EXPECT_TRUE(summary->goals.empty());
}

// The import through kopt_torch: two problems imported, a broken one an import_error row's message, and a
// second call reuses the folders it wrote.
TEST(TorchBench, ImportsProblemsKeepsErrorsAndReusesUpToDateFolders) {
  auto python = find_torch_python();
  if (!python) GTEST_SKIP() << "no Python for the PyTorch bridge: " << python.error().message;
  test::TempDir dir;
  fs::path const root = dir.path() / "corpus";
  write(root / "level1" / "relu.py", kProblem);
  write(root / "level1" / "broken.py",
        "import torch\n\n\nclass Model(torch.nn.Module):\n    def forward(self, x):\n"
        "        return x +\n");
  auto problems = discover_torch_problems({root}, {});
  ASSERT_TRUE(problems) << problems.error().message;
  ASSERT_EQ(problems->size(), 2u);
  TorchTaskImport request;
  request.tasks_root = dir.path() / "out" / "tasks";
  std::size_t announced = 0;
  auto tasks = import_torch_tasks(*problems, request, [&](std::size_t, SuiteTask const&) { ++announced; });
  EXPECT_EQ(announced, 2u);
  ASSERT_EQ(tasks.size(), 2u);
  if (tasks[1].import_error.find("No module named 'torch'") != std::string::npos) {
    GTEST_SKIP() << "the bridge's Python has no torch: " << tasks[1].import_error;
  }
  EXPECT_EQ(tasks[0].id, "level1/broken");
  EXPECT_NE(tasks[0].import_error.find("broken.py:6: syntax error"), std::string::npos)
      << tasks[0].import_error;
  EXPECT_EQ(tasks[1].import_error, "");
  EXPECT_EQ(tasks[1].dir, fs::absolute(request.tasks_root / "level1" / "relu_fp32"));
  EXPECT_TRUE(fs::exists(tasks[1].dir / "torch_abi.json"));
  auto const written = fs::last_write_time(tasks[1].dir / "task.toml");
  auto again = import_torch_tasks({(*problems)[1]}, request);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].dir, tasks[1].dir);
  EXPECT_EQ(fs::last_write_time(tasks[1].dir / "task.toml"), written);  // reused, not imported again
}

// A task folder imported elsewhere (on a CPU machine) and copied here is reused when its problem.py has the
// problem's current text and the importer that wrote it is the one that would run now, whatever the files'
// modification times say; a changed problem, or a folder of another importer, is imported again.
// No Python is needed: a reuse never calls the importer, and the import of a changed problem fails here
// either way (no torch, or a text that is no problem).
TEST(TorchBench, ReusesACopiedTaskFolderByTheProblemsTextNotItsTimes) {
  test::TempDir dir;
  fs::path const problem = dir.path() / "corpus" / "level1" / "relu.py";
  write(problem, kProblem);
  fs::path const task_dir = dir.path() / "tasks" / "level1" / "relu_fp32";
  write(task_dir / "task.toml", "name = \"relu_fp32\"\n");
  auto const digest = torch_importer_digest();
  ASSERT_TRUE(digest) << digest.error().message;
  write(task_dir / "torch_abi.json", R"({"importer": ")" + *digest + "\"}\n");
  write(task_dir / "problem.py", kProblem);
  auto const long_ago = fs::last_write_time(problem) - std::chrono::hours(24 * 365);
  for (auto const* name : {"task.toml", "torch_abi.json", "problem.py"})
    fs::last_write_time(task_dir / name, long_ago);
  auto problems = discover_torch_problems({dir.path() / "corpus"}, {});
  ASSERT_TRUE(problems) << problems.error().message;
  ASSERT_EQ(problems->size(), 1u);
  TorchTaskImport request;
  request.tasks_root = dir.path() / "tasks";
  auto reused = import_torch_tasks(*problems, request);
  ASSERT_EQ(reused.size(), 1u);
  EXPECT_EQ(reused[0].import_error, "");
  EXPECT_EQ(reused[0].dir, fs::absolute(task_dir));
  EXPECT_EQ(fs::last_write_time(task_dir / "task.toml"), long_ago);  // not imported again

  // Written by another version of the importer: imported again.
  write(task_dir / "torch_abi.json", R"({"importer": "0000"})");
  auto older = import_torch_tasks(*problems, request);
  ASSERT_EQ(older.size(), 1u);
  // Imported again: it failed (no torch here) or it rewrote the record with this importer's digest.
  auto const record = read_text_file(task_dir / "torch_abi.json");
  ASSERT_TRUE(record);
  EXPECT_TRUE(!older[0].import_error.empty() || record->find(*digest) != std::string::npos)
      << "a folder an older importer wrote must be imported again";

  write(task_dir / "torch_abi.json", R"({"importer": ")" + *digest + "\"}\n");
  write(problem, "# changed\n");
  auto changed = import_torch_tasks(*problems, request);
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_NE(changed[0].import_error, "") << "a changed problem must be imported again, not reused";
}

}  // namespace torch_bench_test
}  // namespace kopt
