// Where a search's wall time went (docs/optimize.md, "Where the time goes"), summed over the evaluator's
// fresh screen evaluations of a run.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "kopt/eval.hpp"

namespace kopt {

// Compiles run on all cores while the GPU works, so compile_cpu_ms overlaps the rest; compile_wait_ms is
// the part the evaluator spent waiting for a compile (the GPU idle). The search's wall time not in
// compile_wait_ms, worker_ms or trusted_build_ms is kopt's own work between evaluations (the search, the
// store).
struct SearchTimeAccount {
  std::size_t evaluations = 0;
  double compile_cpu_ms = 0.0;
  double compile_wait_ms = 0.0;
  double worker_ms = 0.0;  // worker round trips; load, verify and time are inside
  double load_ms = 0.0;
  double verify_ms = 0.0;
  double time_ms = 0.0;
  double activity_ms = 0.0;       // inside time_ms
  double trusted_build_ms = 0.0;  // inside the search (0 when built before it, as optimize does)
  double reference_ms = 0.0;      // a PyTorch task's reference process during the search (PhaseTimes)
  double first_result_ms = 0.0;   // from the search's start to its first fresh report
  // Before the search's clock started: the task's reference and baseline built (build_trusted_code; for a
  // PyTorch task also the reference process started, its outputs computed and eager and torch.compile
  // timed). Not in search_ms; reported beside it.
  double setup_ms = 0.0;
  void add(PhaseTimes const& phases) noexcept;
};
nlohmann::json search_time_to_json(SearchTimeAccount const& account, double search_seconds);
// "search 6.6 s: worker 4.5 s (load 0.2 s, verify 1.1 s, time 3.0 s), waiting for compiles 1.2 s, kopt
// 0.9 s; first result after 0.4 s; compiles took 38 s of CPU time; the reference was built before the
// search in 1.5 s", empty when nothing was evaluated.
std::string search_time_line(SearchTimeAccount const& account, double search_seconds);

}  // namespace kopt
