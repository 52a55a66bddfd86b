// kopt-bench-eval: evaluation throughput (candidates per second, end to end) and where the time
// goes (compile, load, verify, time), for kernel-mode and launcher-mode candidates.
//
// It writes N distinct variants of one candidate (each differs by a #define, so every one is a real
// compile, never a cache hit), evaluates them in one batch on the screen tier after a warm-up
// evaluation, and prints a table (or JSON). docs/benchmarks.md records results with the command.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kopt/eval.hpp"
#include "kopt/task.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::string read_file(std::filesystem::path const& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Measures kopt's evaluation throughput (candidates/s) and its breakdown."};
  std::string task_dir = "examples/softmax";
  std::string candidate;
  std::string mode = "kernel";
  int count = 40;
  std::vector<std::string> sizes;
  std::string tier = "screen";
  bool as_json = false;
  app.add_option("--task", task_dir, "task directory");
  app.add_option("--candidate", candidate, "candidate source to vary")->required();
  app.add_option("--mode", mode, "kernel or launcher")->check(CLI::IsMember({"kernel", "launcher"}));
  app.add_option("--count", count, "number of distinct candidates");
  app.add_option("--sizes", sizes, "size cases to use (default: all)")->delimiter(',');
  app.add_option("--tier", tier, "screen or confirm");
  app.add_flag("--json", as_json, "print JSON");
  CLI11_PARSE(app, argc, argv);

  auto task = kopt::load_task(task_dir);
  if (!task) {
    std::cerr << "kopt-bench-eval: " << task.error().message << "\n";
    return 2;
  }
  kopt::EvalOptions options;
  options.tier = *kopt::timing_tier_from_string(tier);
  options.seed = 20261130;
  options.sizes = sizes;
  options.mode = mode == "kernel" ? kopt::CandidateMode::kernel : kopt::CandidateMode::launcher;
  auto const t_create = Clock::now();
  auto evaluator = kopt::Evaluator::create(options);
  if (!evaluator) {
    std::cerr << "kopt-bench-eval: " << evaluator.error().message << "\n";
    return 3;
  }
  double const startup_ms = std::chrono::duration<double, std::milli>(Clock::now() - t_create).count();

  std::string const base = read_file(candidate);
  auto dir = std::filesystem::temp_directory_path() / fmt::format("kopt-bench-{}", ::getpid());
  std::filesystem::create_directories(dir);
  auto nonce = std::chrono::system_clock::now().time_since_epoch().count();
  auto variant = [&](int i) {
    kopt::CandidateSource c;
    c.name = fmt::format("variant{}", i);
    c.path = dir / (c.name + ".cu");
    c.source = fmt::format("#define KOPT_BENCH_VARIANT {}{}\n", nonce, i) + base;
    return c;
  };
  // Warm-up: builds the reference, caches its outputs and timings, loads libraries.
  auto const t_warm = Clock::now();
  auto warm = (*evaluator)->evaluate(*task, {variant(-1)});
  double const warm_ms = std::chrono::duration<double, std::milli>(Clock::now() - t_warm).count();
  if (!warm) {
    std::cerr << "kopt-bench-eval: " << warm.error().message << "\n";
    return 3;
  }
  std::vector<kopt::CandidateSource> batch;
  for (int i = 0; i < count; ++i) batch.push_back(variant(i));
  auto const t0 = Clock::now();
  auto report = (*evaluator)->evaluate(*task, batch);
  double const wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  std::filesystem::remove_all(dir);
  if (!report) {
    std::cerr << "kopt-bench-eval: " << report.error().message << "\n";
    return 3;
  }
  kopt::PhaseTimes mean;
  int ok = 0;
  for (auto const& c : report->candidates) {
    mean.compile_ms += c.phases.compile_ms / count;
    mean.load_ms += c.phases.load_ms / count;
    mean.verify_ms += c.phases.verify_ms / count;
    mean.time_ms += c.phases.time_ms / count;
    mean.total_ms += c.phases.total_ms / count;
    ok += c.status == kopt::CandidateStatus::ok ? 1 : 0;
  }
  double const per_s = count / (wall_ms / 1000.0);
  double cand_us = 0;
  if (!report->candidates.empty() && !report->candidates.front().sizes.empty()) {
    for (auto const& s : report->candidates.front().sizes) {
      if (s.candidate) cand_us = s.candidate->us.median;
    }
  }
  // Evidence for whoever reads the numbers: rejected candidates and the first candidate's sizes.
  for (auto const& c : report->candidates) {
    if (c.status != kopt::CandidateStatus::ok) {
      std::cerr << c.name << ": " << kopt::to_string(c.status) << ": " << c.message << "\n"
                << c.diagnostics << "\n";
    }
  }
  if (!report->candidates.empty()) {
    for (auto const& s : report->candidates.front().sizes) {
      if (!s.candidate || !s.reference) continue;
      std::cerr << fmt::format(
          "  size {:<10} ref {:>10.2f} µs  cand {:>10.2f} µs (IQR {:.2f})  speedup {:.2f}x  graph {}\n",
          s.size, s.reference->us.median, s.candidate->us.median, s.candidate->us.iqr(),
          s.speedup.value_or(0.0),
          s.candidate->graph_us ? std::to_string(s.candidate->graph_us->median) : "-");
    }
  }
  if (as_json) {
    nlohmann::json j{{"task", task->name},
                     {"mode", mode},
                     {"tier", tier},
                     {"count", count},
                     {"ok", ok},
                     {"wall_ms", wall_ms},
                     {"candidates_per_s", per_s},
                     {"startup_ms", startup_ms},
                     {"warmup_eval_ms", warm_ms},
                     {"mean_compile_ms", mean.compile_ms},
                     {"mean_load_ms", mean.load_ms},
                     {"mean_verify_ms", mean.verify_ms},
                     {"mean_time_ms", mean.time_ms},
                     {"kernel_median_us", cand_us},
                     {"device", report->device.name}};
    std::cout << j.dump(2) << "\n";
  } else {
    fmt::print("task {} | mode {} | tier {} | {} candidates ({} ok) | device {}\n", task->name, mode, tier,
               count, ok, report->device.name);
    fmt::print("{:>14} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "cand/s", "wall ms", "compile ms",
               "load ms", "verify ms", "time ms", "kernel µs");
    fmt::print("{:>14.2f} {:>12.1f} {:>12.2f} {:>12.2f} {:>12.2f} {:>12.2f} {:>12.2f}\n", per_s, wall_ms,
               mean.compile_ms, mean.load_ms, mean.verify_ms, mean.time_ms, cand_us);
    fmt::print(
        "(startup {:.0f} ms, warm-up evaluation {:.0f} ms not counted; compile runs in parallel with the "
        "GPU)\n",
        startup_ms, warm_ms);
  }
  return ok == count ? 0 : 1;
}
