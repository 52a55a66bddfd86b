// A bench row for the tests of suite_bench and bench_report: status ok, a reference of 100 us x speedup and
// a best of 100 us, so that the row's speedup is `speedup`.
#pragma once

#include <string>
#include <utility>

#include "kopt/suite_bench.hpp"

namespace kopt::test {

inline BenchRow bench_row(std::string task, std::string scenario, std::string family, std::string size,
                          double speedup, bool largest = true) {
  BenchRow r;
  r.task = std::move(task);
  r.scenario = std::move(scenario);
  r.family = std::move(family);
  r.size = std::move(size);
  r.status = "ok";
  r.reference_us = 100.0 * speedup;
  r.best_us = 100.0;
  r.speedup = speedup;
  r.largest = largest;
  return r;
}

// A PyTorch problem's row at `size` (docs/bench.md, "PyTorch problems"): kopt's kernel at `kopt_us`, eager
// (the reference) at `eager_us`, torch.compile (the baseline) at `compile_us` (0: no timing); times only
// when the status is ok, with vectorized_map1 as the strategy.
inline BenchRow torch_bench_row(std::string const& task, std::string const& size, double kopt_us,
                                double eager_us, double compile_us, std::string status = "ok") {
  BenchRow r;
  r.task = task;
  r.scenario = task.substr(0, task.find('/'));
  r.size = size;
  r.status = std::move(status);
  if (r.status == "ok") {
    r.best_us = kopt_us;
    r.reference_us = eager_us;
    r.speedup = eager_us / kopt_us;
    if (compile_us > 0.0) {
      r.baseline_us = compile_us;
      r.vs_vendor = compile_us / kopt_us;
    }
    r.strategy = "vectorized_map1";
  }
  return r;
}

}  // namespace kopt::test
