// Hand-built reports shared by the report tests.
#pragma once

#include <cmath>
#include <limits>

#include "kopt/eval.hpp"

namespace kopt::testing {

inline SampleStats stats(double median, double q1, double q3) {
  SampleStats s;
  s.count = 50;
  s.median = median;
  s.min = q1 * 0.9;
  s.max = q3 * 1.5;
  s.mean = (q1 + q3) / 2;
  s.q1 = q1;
  s.q3 = q3;
  return s;
}

inline KernelTiming timing(double median_us, double q1, double q3) {
  KernelTiming t;
  t.us = stats(median_us, q1, q3);
  t.warmup_ms = 25.5;
  return t;
}

inline DeviceInfo h200() {
  DeviceInfo device;
  device.index = 0;
  device.name = "NVIDIA H200";
  device.cc_major = 9;
  device.cc_minor = 0;
  device.sm_count = 132;
  device.l2_bytes = 50331648;
  device.memory_bytes = 150754820096;
  device.clock_khz = 1980000;
  device.driver_version = 13000;
  device.runtime_version = 12080;
  device.uuid = "GPU-1234";
  device.ceilings.dram_bytes_per_s = 4.1e12;
  device.ceilings.fp32_flops_per_s = 6.7e13;
  device.ceilings.tensor_flops_per_s = 9.89e14;
  device.isolation = "netns+rlimits";
  return device;
}

// Candidate "fast.cu": ok on two timed sizes (with a vendor baseline) and one verify-only size.
inline CandidateReport ok_candidate() {
  CandidateReport c;
  c.name = "fast.cu";
  c.path = "/tmp/cands/fast.cu";
  c.mode = CandidateMode::kernel;
  c.status = CandidateStatus::ok;
  c.cache_hit = true;
  c.ran_on = EvaluationPlace{"node7", "node7:gpu3", 3, "GPU-3", "NVIDIA H200"};
  c.resources.registers = 40;
  c.resources.spill_stores_bytes = 0;
  c.resources.spill_loads_bytes = 0;
  c.resources.static_shared_bytes = 4096;

  SizeResult small;
  small.size = "small";
  small.max_abs_err = 1.2e-7;
  small.max_rel_err = 3.0e-6;
  small.seeds = {11, 12, 13, 14};
  small.reference = timing(12.3, 12.0, 12.412);
  small.candidate = timing(3.61, 3.6, 3.62);
  small.candidate->graph_us = stats(3.2, 3.19, 3.21);
  small.baseline = timing(4.33, 4.3, 4.4);
  small.speedup = 12.3 / 3.61;
  small.vs_baseline = 4.33 / 3.61;
  small.bytes = 8.0e6;
  small.sol_us = 1.7;
  small.achieved_gbps = 2216.0;
  small.pct_of_sol = 47.1;

  SizeResult large = small;
  large.size = "large";
  large.reference = timing(1234.0, 1200.0, 1250.0);
  large.candidate = timing(361.0, 360.0, 362.0);
  large.baseline = std::nullopt;
  large.speedup = 1234.0 / 361.0;
  large.vs_baseline = std::nullopt;
  large.pct_of_sol = std::nullopt;

  SizeResult odd;
  odd.size = "odd";
  odd.verify_only = true;
  odd.max_abs_err = 0.0;
  odd.seeds = {21, 22, 23};

  c.sizes = {small, large, odd};
  c.geomean_speedup = std::sqrt((12.3 / 3.61) * (1234.0 / 361.0));
  c.phases = PhaseTimes{13.2, 1.2, 45.0, 2100.0, 2160.0};
  c.phases.reference_ms = 7.5;  // as a PyTorch task reports it: round-trips
  return c;
}

// Candidate "wrong.cu": wrong output on the verify-only size 'odd'.
inline CandidateReport wrong_candidate() {
  CandidateReport c;
  c.name = "wrong.cu";
  c.path = "/tmp/cands/wrong.cu";
  c.mode = CandidateMode::launcher;
  c.status = CandidateStatus::wrong_output;
  c.message = "13 of 1000003 elements outside tolerance";
  SizeResult small;
  small.size = "small";
  small.seeds = {1, 2, 3};
  SizeResult odd;
  odd.size = "odd";
  odd.verify_only = true;
  odd.status = CandidateStatus::wrong_output;
  odd.message = "13 of 1000003 elements outside tolerance (atol 1e-05, rtol 1e-05); first at index 1000000";
  odd.max_abs_err = 0.25;
  odd.max_rel_err = std::numeric_limits<double>::infinity();
  odd.mismatches = 13;
  odd.seeds = {4, 5, 6};
  c.sizes = {small, odd};
  c.phases = PhaseTimes{1300.0, 2.0, 30.0, 0.0, 1332.0};
  return c;
}

// Candidate "broken.cu": does not compile.
inline CandidateReport broken_candidate() {
  CandidateReport c;
  c.name = "broken.cu";
  c.path = "/tmp/cands/broken.cu";
  c.mode = CandidateMode::kernel;
  c.status = CandidateStatus::compile_error;
  c.message = "NVRTC rejected the source";
  c.diagnostics = "broken.cu(3): error: identifier \"x\" is undefined\n1 error detected in the compilation";
  c.phases = PhaseTimes{12.0, 0.0, 0.0, 0.0, 12.0};
  return c;
}

inline EvalReport sample_eval_report() {
  EvalReport r;
  r.task = "softmax";
  r.task_dir = "/tasks/softmax";
  r.device = h200();
  r.toolkit = "13.0";
  r.seed = 18446744073709551557ULL;  // above 2^63: must survive as unsigned
  r.tier = TimingTier::screen;
  r.started_at = "2025-06-01T12:00:00Z";
  r.wall_ms = 3410.0;
  r.candidates = {ok_candidate(), wrong_candidate(), broken_candidate()};
  return r;
}

inline TaskCheckReport sample_task_check() {
  TaskCheckReport r;
  r.task = "softmax";
  r.device = h200();
  r.seed = 7;
  TaskCheckSize a;
  a.size = "small";
  a.buffer_elements = {{"out", 1048576}, {"in", 1048576}};
  a.bytes = 8388608.0;
  a.flops = std::nullopt;
  a.reference = timing(12.3, 12.0, 12.5);
  a.baseline = timing(4.33, 4.3, 4.4);
  TaskCheckSize b;
  b.size = "odd";
  b.buffer_elements = {{"out", 1000003}, {"in", 1000003}};
  b.reference = timing(11.0, 10.9, 11.2);
  b.deterministic = false;
  b.reference_constant = true;
  b.note = "smaller than one wave";
  r.sizes = {a, b};
  r.warnings = {
      "size 'odd': the reference's outputs are constant; a kernel that writes a constant would pass"};
  return r;
}

}  // namespace kopt::testing
