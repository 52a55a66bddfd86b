// `kopt bench`'s pure parts: finding a suite's tasks, the geomeans and goals, the kopt.bench/1 document and
// its round trip, merging parts, and the evidence for the gaps through to its Markdown (docs/bench.md).
#include "kopt/suite_bench.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "kopt/bench_report.hpp"
#include "kopt/store.hpp"
#include "propose/propose_fixtures.hpp"
#include "support/bench_rows.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace suite_bench_test {

namespace fs = std::filesystem;

// A strategy library of one strategy `name` for `family`, whose template has one knob TILE in {1, 2}.
void write_tile_library(fs::path const& root, std::string const& name, std::string const& family) {
  test::write_file(root / "common" / "strategy.cuh", "// common\n");
  test::write_file(root / "g" / "strategies.toml",
                   "[[strategy]]\nname = \"" + name + "\"\nfamilies = [\"" + family + "\"]\ntemplate = \"" +
                       name +
                       ".cu\"\nsignature = \"void (T* c, const T* a, const T* b, int n)\"\n"
                       "description = \"Knob TILE.\"\napplies_when = \"Always.\"\n");
  test::write_file(
      root / "g" / (name + ".cu"),
      "// kopt:knob TILE = [1, 2]\n"
      "extern \"C\" __global__ void {{ENTRY}}({{T}}* c, const {{T}}* a, const {{T}}* b, int n) {}\n");
}

BenchGoal const& goal(BenchSummary const& s, std::string const& prefix) {
  for (auto const& g : s.goals) {
    if (g.name.rfind(prefix, 0) == 0) return g;
  }
  throw std::logic_error("no goal " + prefix);
}

TEST(SuiteBench, DiscoversTasksSortedAndFiltered) {
  test::TempDir dir;
  for (auto const* t : {"llm/relu-f32", "llm/relu-bf16", "algebra/gemv-f32", "algebra/deep/x-f32"}) {
    fs::create_directories(dir.path() / "suites" / t);
    std::ofstream(dir.path() / "suites" / t / "task.toml") << "\n";
  }
  auto all = discover_suite_tasks({dir.path() / "suites"}, {});
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 4u);
  EXPECT_EQ((*all)[0].id, "algebra/deep/x-f32");
  EXPECT_EQ((*all)[0].scenario, "algebra");
  EXPECT_EQ((*all)[3].id, "llm/relu-f32");
  auto some = discover_suite_tasks({dir.path() / "suites"}, {"relu-b", "gemv"});
  ASSERT_TRUE(some);
  ASSERT_EQ(some->size(), 2u);
  EXPECT_EQ((*some)[0].id, "algebra/gemv-f32");
  EXPECT_EQ((*some)[1].id, "llm/relu-bf16");
  auto one = discover_suite_tasks({dir.path() / "suites" / "llm" / "relu-f32"}, {});
  ASSERT_TRUE(one);
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].id, "relu-f32");
  auto missing = discover_suite_tasks({dir.path() / "nope"}, {});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("not a folder"), std::string::npos);
}

TEST(SuiteBench, ShardsCoverEveryTaskOnce) {
  std::vector<SuiteTask> tasks;
  tasks.reserve(7);
  for (int i = 0; i < 7; ++i) tasks.push_back(SuiteTask{{}, "t" + std::to_string(i), "s"});
  std::vector<std::string> seen;
  for (std::size_t index = 0; index < 3; ++index) {
    auto shard = parse_bench_shard(std::to_string(index) + "/3");
    ASSERT_TRUE(shard) << shard.error().message;
    auto const part = shard_tasks(tasks, *shard);
    EXPECT_EQ(part.size(), index == 0 ? 3u : 2u);
    for (auto const& t : part) seen.push_back(t.id);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"t0", "t1", "t2", "t3", "t4", "t5", "t6"}));
  EXPECT_EQ(shard_tasks(tasks, BenchShard{}).size(), 7u);
  for (auto const* bad : {"2/2", "1", "a/2", "0/0", "-1/2", "1/2x", ""}) {
    auto shard = parse_bench_shard(bad);
    ASSERT_FALSE(shard) << bad;
    EXPECT_EQ(shard.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(shard.error().message.find("--shard '" + std::string(bad) + "': expected I/N"),
              std::string::npos);
  }
}

TEST(SuiteBench, GeomeansPerScenarioAndOverall) {
  BenchSummary s;
  s.rows = {test::bench_row("algebra/a", "algebra", "gemv", "large", 4.0),
            test::bench_row("algebra/b", "algebra", "dot", "large", 16.0),
            test::bench_row("llm/c", "llm", "relu", "large", 2.0)};
  summarise_bench(s);
  ASSERT_EQ(s.geomean_by_scenario.size(), 2u);
  EXPECT_EQ(s.geomean_by_scenario[0].first, "algebra");
  EXPECT_NEAR(s.geomean_by_scenario[0].second, 8.0, 1e-9);
  EXPECT_NEAR(s.geomean_by_scenario[1].second, 2.0, 1e-9);
  ASSERT_TRUE(s.geomean_overall);
  EXPECT_NEAR(*s.geomean_overall, std::cbrt(128.0), 1e-9);  // (4 * 16 * 2)^(1/3)
  EXPECT_FALSE(goal(s, "geomean speedup").met);
  s.rows.push_back(test::bench_row("llm/d", "llm", "relu", "large", 1000.0));
  summarise_bench(s);
  EXPECT_TRUE(goal(s, "geomean speedup").met);
}

TEST(SuiteBench, GoalsNameWhatMissesThem) {
  BenchSummary s;
  auto memory = test::bench_row("llm/relu-f32", "llm", "activation", "large", 2.0);
  memory.memory_bound = true;
  memory.pct_of_sol = 84.0;
  auto small = test::bench_row("llm/relu-f32", "llm", "activation", "medium", 2.0, false);
  small.memory_bound = true;
  small.pct_of_sol = 40.0;  // not the largest size: not judged
  auto gemm = test::bench_row("algebra/gemm-f32", "algebra", "gemm", "large", 10.0);
  gemm.baseline_us = 80.0;
  gemm.vs_vendor = 0.8;
  auto fft = test::bench_row("scientific/fft-f32", "scientific", "fft", "large", 10.0);
  fft.baseline_us = 75.0;
  fft.vs_vendor = 0.75;  // FFT's goal is 0.7x
  auto failed = test::bench_row("sparse/spmv-f32", "sparse", "spmv_csr", "-", 0.0);
  failed.status = "error";
  failed.speedup.reset();
  s.rows = {memory, small, gemm, fft, failed};
  summarise_bench(s);
  auto const& verified = goal(s, "every task verified");
  EXPECT_FALSE(verified.met);
  EXPECT_NE(verified.detail.find("1 of 4 tasks not verified by a kopt kernel: sparse/spmv-f32"),
            std::string::npos)
      << verified.detail;
  auto const& bandwidth = goal(s, "memory-bound");
  EXPECT_FALSE(bandwidth.met);
  EXPECT_EQ(bandwidth.detail, "1 of 1 below: llm/relu-f32 84%");
  auto const& vendor = goal(s, "GEMM");
  EXPECT_FALSE(vendor.met);
  EXPECT_EQ(vendor.detail, "1 of 2 below: algebra/gemm-f32 0.80x (goal 0.9x)");
  s.rows[0].pct_of_sol = 86.0;
  s.rows[2].vs_vendor = 0.95;
  s.rows.pop_back();
  summarise_bench(s);
  EXPECT_TRUE(goal(s, "every task verified").met);
  EXPECT_TRUE(goal(s, "memory-bound").met);
  EXPECT_TRUE(goal(s, "GEMM").met);
}

TEST(SuiteBench, TheDocumentRoundTripsAndBadInputNamesTheField) {
  BenchSummary s;
  s.device = "NVIDIA H200";
  s.started_at = "2026-11-30T17:00:00Z";
  s.elapsed_seconds = 12.5;
  auto r = test::bench_row("llm/relu-f32", "llm", "activation", "large", 2.0);
  r.baseline_us = 90.0;
  r.vs_vendor = 0.9;
  r.run = 7;
  r.note = "a note";
  s.rows = {r};
  summarise_bench(s);
  auto const json = bench_to_json(s);
  EXPECT_EQ(json["schema"], "kopt.bench/1");
  auto back = bench_from_json(json, "x.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(bench_to_json(*back), json);
  auto bad = json;
  bad["rows"][0].erase("task");
  auto error = bench_from_json(bad, "x.json");
  ASSERT_FALSE(error);
  EXPECT_EQ(error.error().message, "x.json: rows[0]: expected an object with task and status");
  EXPECT_FALSE(bench_from_json(nlohmann::json{{"schema", "kopt.eval/1"}}, "y.json"));
  // A field of the wrong type (found by fuzzing: a null device ended in an internal error) is an error
  // naming the field, at the top level, in a row and in a row's evidence.
  auto null_device = json;
  null_device["device"] = nullptr;
  auto const device = bench_from_json(null_device, "x.json");
  ASSERT_FALSE(device);
  EXPECT_EQ(device.error().message, "x.json: device: expected a string, got null");
  auto wrong_flag = json;
  wrong_flag["rows"][0]["largest"] = "yes";
  auto const flag = bench_from_json(wrong_flag, "x.json");
  ASSERT_FALSE(flag);
  EXPECT_EQ(flag.error().message, "x.json: rows[0].largest: expected true or false, got string");
  auto bad_evidence = json;
  bad_evidence["rows"][0]["evidence"] = nlohmann::json::array({{{"subject", "kopt"}, {"kernels", -1}}});
  auto const evidence = bench_from_json(bad_evidence, "x.json");
  ASSERT_FALSE(evidence);
  EXPECT_EQ(evidence.error().message,
            "x.json: rows[0].evidence[0].kernels: expected a non-negative integer, got number");
}

TEST(SuiteBench, MergingKeepsTheLastRunOfATask) {
  BenchSummary first;
  first.device = "NVIDIA H200";
  first.elapsed_seconds = 10;
  first.rows = {test::bench_row("algebra/a", "algebra", "gemv", "large", 2.0),
                test::bench_row("llm/b", "llm", "relu", "large", 3.0)};
  BenchSummary second;
  second.device = "NVIDIA H200";
  second.elapsed_seconds = 5;
  second.rows = {test::bench_row("algebra/a", "algebra", "gemv", "large", 8.0)};
  auto merged = merge_benches({first, second});
  ASSERT_EQ(merged.rows.size(), 2u);
  EXPECT_EQ(merged.rows[0].task, "algebra/a");
  EXPECT_NEAR(*merged.rows[0].speedup, 8.0, 1e-12);
  EXPECT_EQ(merged.device, "NVIDIA H200");
  EXPECT_DOUBLE_EQ(merged.elapsed_seconds, 15.0);
  ASSERT_TRUE(merged.geomean_overall);
  EXPECT_NEAR(*merged.geomean_overall, std::sqrt(24.0), 1e-9);
}

// The loop on a fake evaluator: a task whose only strategy is slower than its reference keeps the reference;
// a task no strategy serves is timed as its reference; files are reported after every task.
TEST(SuiteBench, RunsEveryTaskAndKeepsTheReferenceWhenNothingBeatsIt) {
  test::TempDir dir;
  write_tile_library(dir.path() / "lib", "slow_tiles", "elementwise");
  for (auto const* name : {"add-f32", "sorted-f32"}) {
    std::string toml = test::add_task_toml("n");
    if (std::string(name) == "sorted-f32") toml.replace(toml.find("elementwise"), 11, "sort");
    test::write_file(dir.path() / "suite" / "algebra" / name / "task.toml", toml);
    test::write_file(dir.path() / "suite" / "algebra" / name / "reference.cu", "\n");
  }
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  auto tasks = discover_suite_tasks({dir.path() / "suite"}, {});
  ASSERT_TRUE(tasks) << tasks.error().message;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  // TILE=2 is the better configuration but still half the reference's speed; the reference runs at 1x.
  FakeCandidateEvaluator fake([](std::map<std::string, std::string, std::less<>> const& knobs) {
    double const speedup = knobs.empty() ? 1.0 : knobs.at("TILE") == "2" ? 0.5 : 0.25;
    return FakeResult{CandidateStatus::ok, "", {100.0 / speedup}, {100.0}};
  });
  BenchOptions options;
  options.propose.budget = 2;
  options.propose.search = "exhaustive";
  std::size_t partials = 0;
  auto summary = run_suite_bench(*tasks, *library, options, fake, *store, [&](BenchProgress const& p) {
    if (p.partial != nullptr) {
      ++partials;
      EXPECT_EQ(p.partial->rows.size(), p.task_index);
    }
  });
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(partials, 2u);
  // The second task's reference and baseline were handed over while the first ran; nothing after the last.
  ASSERT_EQ(fake.prepared().size(), 1u);
  EXPECT_EQ(fake.prepared()[0].filename(), "sorted-f32");
  ASSERT_EQ(summary->rows.size(), 2u);
  auto const& kept = summary->rows[0];
  EXPECT_EQ(kept.task, "algebra/add-f32");
  EXPECT_EQ(kept.status, "ok");
  EXPECT_EQ(kept.strategy, "reference kept");
  EXPECT_NEAR(*kept.speedup, 1.0, 1e-12);
  EXPECT_NEAR(*kept.best_us, 100.0, 1e-9);
  EXPECT_NE(kept.note.find("the best strategy (slow_tiles) measured 0.50x"), std::string::npos) << kept.note;
  auto const& alone = summary->rows[1];
  EXPECT_EQ(alone.task, "algebra/sorted-f32");
  EXPECT_EQ(alone.status, "no_strategy");
  EXPECT_NEAR(*summary->geomean_overall, 1.0, 1e-12);
}

// --profile-gaps: a task whose largest size misses its vendor goal gets Nsight Compute evidence for kopt's
// kernel and the vendor's; a task that meets its goals is not profiled; the evidence survives the JSON round
// trip and is rendered.
TEST(SuiteBench, ProfilesTheGapsAndKeepsTheEvidence) {
  test::TempDir dir;
  write_tile_library(dir.path() / "lib", "tiles", "gemm");
  for (auto const* name : {"behind-f32", "ahead-f32"}) {
    std::string toml = test::add_task_toml("n");
    toml.replace(toml.find("elementwise"), 11, "gemm");
    toml.replace(toml.find("name = \"add\""), 12, std::string("name = \"") + name + "\"");
    toml += "[baseline]\nsource = \"baseline.cu\"\n";
    test::write_file(dir.path() / "suite" / "algebra" / name / "task.toml", toml);
    test::write_file(dir.path() / "suite" / "algebra" / name / "reference.cu", "\n");
    test::write_file(dir.path() / "suite" / "algebra" / name / "baseline.cu", "// the vendor\n");
  }
  auto library = load_strategy_library(dir.path() / "lib");
  ASSERT_TRUE(library) << library.error().message;
  auto tasks = discover_suite_tasks({dir.path() / "suite"}, {});
  ASSERT_TRUE(tasks) << tasks.error().message;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  // kopt's best runs at 100 us; the vendor at 50 us on "behind" (0.5x, goal 0.9x) and 200 us on "ahead".
  std::string current;
  FakeCandidateEvaluator fake([&](std::map<std::string, std::string, std::less<>> const& knobs) {
    double const us = knobs.empty() ? 1000.0 : knobs.at("TILE") == "2" ? 100.0 : 400.0;
    return FakeResult{CandidateStatus::ok,
                      "",
                      {us},
                      {1000.0},
                      {},
                      std::nullopt,
                      std::nullopt,
                      {current == "behind" ? 50.0 : 200.0}};
  });
  std::vector<std::string> sources;
  fake.set_profiler([&](TaskSpec const& task, CandidateInput const& candidate) {
    sources.push_back(task.name + ": " + candidate.source.substr(0, candidate.source.find('\n')));
    CandidateProfile p;
    p.status = CandidateStatus::ok;
    p.main_kernel = candidate.mode == CandidateMode::launcher ? "vendor_gemm_kernel" : "tiles";
    p.kernels = {p.main_kernel};
    p.classification.bottleneck = BottleneckClass::compute_bound;
    p.classification.summary = "SM throughput 71% of peak";
    p.metrics["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"] = 12.0;
    p.metrics["sm__throughput.avg.pct_of_peak_sustained_elapsed"] = 71.0;
    p.findings.push_back(Finding{"tensor_cores", Severity::high, {}, "no tensor instructions", {}});
    return p;
  });
  BenchOptions options;
  options.propose.budget = 2;
  options.propose.search = "exhaustive";
  options.profile_gaps = true;
  auto summary = run_suite_bench(*tasks, *library, options, fake, *store, [&](BenchProgress const& p) {
    if (p.partial == nullptr && p.message == "tuning")
      current = p.task.find("behind") != std::string::npos ? "behind" : "ahead";
  });
  ASSERT_TRUE(summary) << summary.error().message;
  ASSERT_EQ(summary->rows.size(), 2u);
  auto const& ahead = summary->rows[0];
  auto const& behind = summary->rows[1];
  ASSERT_EQ(behind.task, "algebra/behind-f32");
  ASSERT_TRUE(behind.vs_vendor);
  EXPECT_NEAR(*behind.vs_vendor, 0.5, 1e-9);
  EXPECT_TRUE(misses_vendor_goal(behind));
  EXPECT_FALSE(misses_vendor_goal(ahead));
  EXPECT_TRUE(ahead.evidence.empty());
  // kopt's best (the stored TILE=2 source) and the vendor's launcher, on the behind task only.
  ASSERT_EQ(fake.profiled().size(), 2u);
  EXPECT_EQ(fake.profiled()[1], "vendor baseline");
  ASSERT_EQ(sources.size(), 2u);
  EXPECT_EQ(sources[0], "behind-f32: // kopt optimize: TILE=2");
  EXPECT_EQ(sources[1], "behind-f32: // the vendor");
  ASSERT_EQ(behind.evidence.size(), 2u);
  EXPECT_EQ(behind.evidence[0].subject, "kopt");
  EXPECT_EQ(behind.evidence[0].bottleneck, "compute_bound");
  EXPECT_EQ(behind.evidence[0].headline.sm_pct, 71.0);
  EXPECT_EQ(behind.evidence[0].findings, std::vector<std::string>{"tensor_cores: no tensor instructions"});
  EXPECT_EQ(behind.evidence[1].subject, "vendor");
  EXPECT_EQ(behind.evidence[1].main_kernel, "vendor_gemm_kernel");

  auto back = bench_from_json(bench_to_json(*summary), "bench.json");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->rows[1].evidence.size(), 2u);
  EXPECT_EQ(back->rows[1].evidence[0].headline.dram_pct, 12.0);
  EXPECT_EQ(back->rows[1].evidence[0].findings, behind.evidence[0].findings);
  auto const md = render_bench_markdown(*back);
  EXPECT_NE(md.find("## Evidence for the gaps"), std::string::npos) << md;
  EXPECT_NE(
      md.find("| algebra/behind-f32 | small | 0.500x the vendor (goal 0.9x) | vendor | `vendor_gemm_kernel` "
              "| compute_bound | 12% | - | 71% |"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("  - tensor_cores: no tensor instructions"), std::string::npos);
  EXPECT_NE(render_bench_text(*back).find("Evidence for the gaps"), std::string::npos);
}

}  // namespace suite_bench_test
}  // namespace kopt
