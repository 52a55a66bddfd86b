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

}  // namespace kopt::test
