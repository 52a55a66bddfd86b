// The metrics of a bench of PyTorch problems (KernelBench's fast_p, over eager and over torch.compile, and
// the geomean speedups), computed from rows alone at each problem's `problem` size case (docs/bench.md).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "kopt/suite_bench.hpp"
#include "suite_bench/geomean.hpp"

namespace kopt {
namespace {

// other / kopt at the row's size: how many times as fast kopt's kernel is (nullopt: a time is missing).
std::optional<double> times_as_fast(std::optional<double> other_us, std::optional<double> kopt_us) {
  if (!other_us || !kopt_us || *kopt_us <= 0.0 || *other_us <= 0.0) return std::nullopt;
  return *other_us / *kopt_us;
}

// What all the rows of one problem say: verified on every size case, flagged, and the first status that
// is not ok.
struct ProblemVerdict {
  bool all_ok = true;
  bool flagged = false;
  std::string status = "ok";
};

// One verdict per problem, in the order the problems first appear (torch_problem_rows' order).
std::vector<ProblemVerdict> verdicts(std::vector<BenchRow> const& rows) {
  std::vector<ProblemVerdict> out;
  std::map<std::string, std::size_t, std::less<>> index;
  for (auto const& row : rows) {
    auto const [it, added] = index.try_emplace(row.task, out.size());
    if (added) out.emplace_back();
    ProblemVerdict& v = out[it->second];
    if (row.status != "ok" && v.all_ok) {
      v.all_ok = false;
      v.status = row.status;
    }
    v.flagged = v.flagged || torch_row_flagged(row);
  }
  return out;
}

}  // namespace

std::vector<BenchRow const*> torch_problem_rows(std::vector<BenchRow> const& rows) {
  std::vector<BenchRow const*> out;
  std::set<std::string, std::less<>> seen;
  for (auto const& row : rows) {
    if (!seen.insert(row.task).second) continue;
    BenchRow const* chosen = &row;
    for (auto const& other : rows) {
      if (other.task == row.task && other.size == "problem") {
        chosen = &other;
        break;
      }
    }
    out.push_back(chosen);
  }
  return out;
}

bool torch_row_flagged(BenchRow const& row) {
  if (!row.flags.empty()) return true;
  auto const over_eager = times_as_fast(row.reference_us, row.best_us);
  return over_eager && *over_eager > kSuspiciousSpeedup;
}

TorchBenchMetrics torch_bench_metrics(std::vector<BenchRow> const& rows) {
  TorchBenchMetrics m;
  for (double p : kTorchFastThresholds) m.fast.push_back(TorchFastP{p, 0, 0});
  auto const problem_rows = torch_problem_rows(rows);
  auto const judged = verdicts(rows);
  std::vector<double> vs_eager;
  std::vector<double> vs_compile;
  for (std::size_t i = 0; i < judged.size(); ++i) {
    ProblemVerdict const& v = judged[i];
    BenchRow const& row = *problem_rows[i];
    ++m.problems;
    if (v.status != "import_error") ++m.imported;
    if (v.status == "no_strategy") {
      ++m.no_strategy;
      continue;
    }
    if (!v.all_ok) {
      ++m.failed;
      continue;
    }
    ++m.correct;
    auto const over_eager = times_as_fast(row.reference_us, row.best_us);
    auto const over_compile = times_as_fast(row.baseline_us, row.best_us);
    if (over_eager && !over_compile) ++m.compile_missing;
    if (v.flagged) {
      ++m.flagged;
      continue;
    }
    for (auto& fast : m.fast) {
      if (over_eager && *over_eager > fast.p) ++fast.over_eager;
      if (over_compile && *over_compile > fast.p) ++fast.over_compile;
    }
    if (over_eager) vs_eager.push_back(*over_eager);
    if (over_compile) vs_compile.push_back(*over_compile);
  }
  m.geomean_vs_eager = geomean_of(vs_eager);
  m.geomean_eager_count = vs_eager.size();
  m.geomean_vs_compile = geomean_of(vs_compile);
  m.geomean_compile_count = vs_compile.size();
  return m;
}

}  // namespace kopt
