// `kopt bench --profile-gaps`: Nsight Compute evidence for the largest size case of a task that misses a
// goal, for kopt's kernel and for the vendor library's (docs/bench.md, "Evidence for the gaps").
#pragma once

#include <optional>
#include <span>

#include "kopt/optimize.hpp"
#include "kopt/suite_bench.hpp"

namespace kopt::bench_detail {

// A profile as a row's evidence: the verdict, the headline numbers and the most severe findings.
BenchEvidence evidence_from_profile(CandidateProfile const& profile, std::string subject);

// The largest row of `rows` (one task's rows) when it is ok and misses a goal; nullptr otherwise.
BenchRow* gap_row(std::span<BenchRow> rows);

// Profiles `kernel` (both stages) and the task's vendor baseline (stage 1) on `row`'s size case and appends
// the evidence to it. `activity`: the kernel's CUPTI activity on that size from its confirm evaluation, so
// launch gaps count (ProfileOptions::activity). A failed profile is evidence with its status and message;
// the bench goes on.
void add_gap_evidence(BenchRow& row, TaskSpec const& task, CandidateInput const& kernel,
                      std::optional<KernelActivity> const& activity, BenchOptions const& options,
                      CandidateEvaluator& evaluator);

}  // namespace kopt::bench_detail
