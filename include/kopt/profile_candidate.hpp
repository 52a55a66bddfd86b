// `kopt profile`: why a candidate is slow, as an expert would find out. Stage 1 runs one call under
// Nsight Compute with the speed-of-light, occupancy and launch metrics and classifies the bottleneck;
// stage 2 runs it again with only the metrics of the tools that class triggers; the tools turn the
// numbers, ptxas's report and the SASS into findings (docs/analysis.md).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "kopt/analysis.hpp"
#include "kopt/eval.hpp"
#include "kopt/profile.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

struct ProfileOptions {
  std::string size;           // size case (empty: the largest timed one)
  std::filesystem::path ncu;  // empty: found on PATH or under /opt/nvidia/nsight-compute
  bool second_stage = true;   // false: stage 1 only (classification, no tool metrics)
  int max_kernels = 16;       // kernel launches profiled within the call
  // Kernel activity of an evaluation by size case (SizeResult::activity): when the profiled size has one,
  // its launches, busy kernel time and event-timed call time replace those derived from ncu's rows
  // (ncu serialises kernels and its call time includes its own overhead).
  std::map<std::string, KernelActivity> activity;
  // A launcher-mode candidate without an entry above is evaluated first (verified and timed on the
  // evaluator's sizes) to record its CUPTI kernel activity: under ncu, the gaps between its launches are
  // invisible. false: ncu's rows only.
  bool evaluate_launchers = true;
};

struct CandidateProfile {
  std::string task;
  std::string candidate;
  std::string size;
  CandidateStatus status = CandidateStatus::ok;  // of the profiled call (a failing kernel is not analysed)
  std::string message;
  std::vector<std::string> kernels;  // every kernel profiled in the call, in launch order
  std::string main_kernel;           // the longest one: its metrics are analysed
  Metrics metrics;                   // of the main kernel, stage 1 and stage 2 merged
  StaticFacts static_facts;
  WorkFacts work;
  Classification classification;
  std::vector<Finding> findings;
  std::vector<std::vector<std::string>> commands;  // how ncu ran, per stage
  std::vector<std::string> notes;                  // what could not be done and why
  double wall_ms = 0.0;
};

// The SASS counts of one function as analysis facts (vector widths, tensor, local, shared, atomics,
// barriers), written into `facts`; ptxas's fields are left alone.
void add_sass_facts(SassFunction const& function, StaticFacts& facts);

// A call's kernel activity as work facts: launches per call, and (when recorded by CUPTI) the busy kernel
// time and the call's time as kernel_us_per_call and median_us.
void add_activity_facts(KernelActivity const& activity, WorkFacts& work);

Result<CandidateProfile> profile_candidate(Evaluator& evaluator, TaskSpec const& task,
                                           CandidateSource const& candidate, ProfileOptions const& options);

}  // namespace kopt
