// `kopt eval`: verify candidates against a task's reference on every size case and time them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kopt/candidate_status.hpp"
#include "kopt/compile.hpp"
#include "kopt/device.hpp"
#include "kopt/kernel_activity.hpp"
#include "kopt/measure.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

// 64 bits from the operating system's entropy source: the seed of trials nobody can predict (an unset
// EvalOptions::seed, a confirm-tier job, one screen seed shared by several GPUs).
std::uint64_t draw_seed();

struct EvalOptions {
  TimingTier tier = TimingTier::confirm;
  std::optional<std::uint64_t> seed;  // unset: drawn from the OS and recorded in the report
  int device = 0;
  bool sanitize = false;              // one trial under compute-sanitizer memcheck + racecheck
  bool time_baseline = true;          // time the task's vendor baseline when it has one
  std::vector<std::string> sizes;     // only these size cases (empty = all)
  std::optional<CandidateMode> mode;  // unset: detected from each source
  CompileOptions compile;
  double timeout_factor = 50.0;      // watchdog: factor x reference time ...
  double timeout_floor_ms = 2000.0;  // ... clamped to [floor, ceiling]
  double timeout_ceiling_ms = 60000.0;
  std::filesystem::path worker_path;  // empty: kopt-worker next to the running executable
};

struct CandidateSource {
  std::string name;  // shown in reports (file name by default)
  std::filesystem::path path;
  std::string source;              // text (read from path when empty)
  std::vector<std::string> flags;  // compiler flags for this candidate only (e.g. -DBLOCK=128)
};

struct KernelTiming {
  SampleStats us;                       // per call, CUDA events (device-wide when needed)
  std::optional<SampleStats> graph_us;  // per call, CUDA-graph replay (short kernels)
  bool device_wide = false;             // work escaped the launch stream; timed to device idle
  double warmup_ms = 0.0;
};

struct SizeResult {
  std::string size;
  bool verify_only = false;
  CandidateStatus status = CandidateStatus::ok;
  std::string message;
  double max_abs_err = 0.0;
  double max_rel_err = 0.0;
  std::size_t mismatches = 0;
  std::vector<std::uint64_t> seeds;  // one per verification trial, then post-timing check
  std::optional<KernelTiming> reference;
  std::optional<KernelTiming> candidate;
  std::optional<KernelTiming> baseline;
  std::optional<double> speedup;      // reference median / candidate median
  std::optional<double> vs_baseline;  // baseline median / candidate median
  std::optional<double> bytes;        // work model for this size
  std::optional<double> flops;
  double sol_us = 0.0;  // speed-of-light bound
  std::optional<double> achieved_gbps;
  std::optional<double> achieved_gflops;
  std::optional<double> pct_of_sol;                  // sol_us / candidate median * 100
  std::optional<KernelActivity> activity;            // the candidate's one call after timing
  std::optional<KernelActivity> reference_activity;  // the reference's, when it is a launcher
};

// The size's kernel activity as profiling should read it: launches and busy time from CUPTI's one extra call,
// but the call's time from the timing protocol (the candidate's median), not from that single call. Measured
// on the H200 (docs/bench.md, "Evidence for the gaps"): the extra call of a one-kernel launcher took 790 us
// against a 203 us median, its host work no longer hidden behind the GPU, which made a compute-bound GEMM
// look launch-overhead-bound. nullopt when the size has no activity.
std::optional<KernelActivity> activity_for_profile(SizeResult const& size);

struct PhaseTimes {
  double compile_ms = 0.0;
  double load_ms = 0.0;
  double verify_ms = 0.0;
  double time_ms = 0.0;
  double total_ms = 0.0;
  double activity_ms = 0.0;  // recording kernel activity (CUPTI) after timing; inside time_ms
  // The evaluator's side: how long it waited for this candidate's compile (the GPU idle meanwhile), and the
  // worker's round trip for it (load, verify, time and the protocol around them).
  double compile_wait_ms = 0.0;
  double worker_ms = 0.0;
  double trusted_build_ms = 0.0;  // the reference and baseline built (or read from the cache) before the
                                  // first candidate of an evaluate() call; 0 for the others
  // A PyTorch task: the reference process's work for this candidate (its trials' outputs, eager and
  // torch.compile timed), outside worker_ms; 0 when all of it was done before (build_trusted_code).
  double reference_ms = 0.0;
};

// Where an evaluation ran: the machine, the farm worker (empty on this host) and the GPU. Evaluations are
// compared and deduplicated by the run's target (EvaluationTarget, kopt/run_log.hpp); this records which
// GPU of a pool or which farm worker did the work (docs/distributed.md, "Where each evaluation ran").
struct EvaluationPlace {
  std::string host;
  std::string worker;     // the farm worker's name; empty when it ran on this host
  int device_index = -1;  // the GPU's CUDA index on its host; -1 unknown
  std::string device_uuid;
  std::string device_name;
};

struct CandidateReport {
  std::string name;
  std::filesystem::path path;
  CandidateMode mode = CandidateMode::kernel;
  CandidateStatus status = CandidateStatus::ok;
  std::string message;      // first failure, for people
  std::string diagnostics;  // compiler output when relevant
  bool cache_hit = false;
  ResourceUsage resources;
  std::vector<SizeResult> sizes;
  std::optional<double> geomean_speedup;  // over timed size cases
  PhaseTimes phases;
  std::string sanitizer;                  // compute-sanitizer summary when --sanitize
  std::optional<EvaluationPlace> ran_on;  // set by the evaluator that ran it
};

struct EvalReport {
  std::string task;
  std::filesystem::path task_dir;
  DeviceInfo device;
  std::string toolkit;
  std::uint64_t seed = 0;
  TimingTier tier = TimingTier::confirm;
  std::string started_at;  // ISO 8601 UTC
  double wall_ms = 0.0;
  std::vector<CandidateReport> candidates;
};

// Progress events for bars and logs.
struct EvalProgress {
  std::size_t done = 0;
  std::size_t total = 0;
  std::string what;
};
using ProgressCallback = std::function<void(EvalProgress const&)>;

struct TaskCheckReport;

// One call of a candidate profiled by Nsight Compute (`kopt profile`; docs/analysis.md).
// The calibration cache (DeviceCalibration): <cache_dir>/calibration/<uuid>-<driver>.json.
std::filesystem::path calibration_path(std::filesystem::path const& cache_dir, DeviceInfo const& device);
Status save_calibration(std::filesystem::path const& path, DeviceCalibration const& calibration);
// The kopt.calibration/1 document that save_calibration writes (and `kopt calibrate --json` prints).
std::string calibration_document(DeviceCalibration const& calibration);
// Errors name the file and the field (invalid_spec) or say it is missing (not_found).
Result<DeviceCalibration> load_calibration(std::filesystem::path const& path);
// The device with the calibration's measured FP32 and tensor-core peaks (and its copy bandwidth when the
// device has none measured); unchanged when the calibration is for another device or driver.
DeviceInfo apply_calibration(DeviceInfo device, DeviceCalibration const& calibration);

struct ProfileLaunchOptions {
  std::string size;                  // the size case to run (empty: the largest timed one)
  std::vector<std::string> metrics;  // Nsight Compute metric names to collect
  std::filesystem::path ncu;         // empty: ncu on PATH, else the newest /opt/nvidia/nsight-compute/*/ncu
  int max_kernels = 16;  // kernel launches profiled within the call (launcher mode may have several)
};

struct ProfiledLaunch {
  CandidateStatus status =
      CandidateStatus::ok;  // the candidate's own outcome (compile_error, runtime_error...)
  std::string message;
  std::string size;
  CandidateMode mode = CandidateMode::kernel;
  ResourceUsage resources;           // ptxas's report (kernel mode)
  std::filesystem::path artifact;    // the built CUBIN or shared object, for disassembly
  std::string symbol;                // the kernel's symbol (kernel mode) or the launcher's
  std::string ncu_log;               // ncu's --log-file text: its ==PROF== lines, then the raw CSV
  std::vector<std::string> command;  // how ncu ran (for the report)
  double wall_ms = 0.0;
};

// Energy per call of a candidate (`kopt energy`; docs/analysis.md, "Energy"): NVML's energy counter read
// around windows of back-to-back calls replayed from a CUDA graph, an idle cooldown before each window.
struct EnergyOptions {
  std::string size;       // the size case to run (empty: the largest timed one)
  double window_s = 2;    // each window lasts at least this long (the counter ticks every ~100 ms)
  double cooldown_s = 1;  // idle before every window
  int trials = 3;         // windows per subject
  bool reference = true;  // also measure the task's reference, for a ratio
};

struct EnergyTrial {
  double joules = 0.0;
  double seconds = 0.0;  // wall time of the window
  std::int64_t calls = 0;
  double joules_per_call = 0.0;
  double avg_watts = 0.0;
  double idle_watts = 0.0;  // power at the end of the cooldown before the window
};

struct ValueSpread {
  double min = 0.0;
  double median = 0.0;
  double max = 0.0;
};

struct EnergyMeasurement {
  std::vector<EnergyTrial> trials;
  ValueSpread joules_per_call;  // over trials
  double avg_watts = 0.0;       // median over trials
  double idle_watts = 0.0;      // median over trials
  double window_s = 0.0;        // median window length
  std::int64_t calls = 0;       // per window
  bool graph = false;           // windows replayed a CUDA graph; false: a plain loop (see note)
  std::int64_t calls_per_graph = 0;
  std::int64_t replays = 0;  // graph replays per window
  double probe_call_us = 0.0;
  ValueSpread sampled_watts;  // read every ~100 ms during the windows
  ValueSpread sm_clock_mhz;
  ValueSpread memory_clock_mhz;
  std::optional<double> temperature_start_c;  // before the first window
  std::optional<double> temperature_end_c;    // after the last
  std::string note;
};

struct EnergyReport {
  std::string task;
  std::string candidate;  // its name
  std::string size;
  DeviceInfo device;
  CandidateMode mode = CandidateMode::kernel;
  CandidateStatus status = CandidateStatus::ok;  // the candidate's own outcome (compile_error, ...)
  std::string message;
  double window_s = 0.0;  // as asked
  double cooldown_s = 0.0;
  int trials = 0;
  std::optional<EnergyMeasurement> candidate_energy;
  std::optional<EnergyMeasurement> reference_energy;
  std::optional<double> ratio;  // candidate J/call / reference J/call (medians)
  std::string sampling;         // how power, clocks and temperature were read
  double wall_ms = 0.0;
};

class Evaluator {
 public:
  // Starts the GPU worker; fails with no_gpu when none is usable.
  static Result<std::unique_ptr<Evaluator>> create(EvalOptions options);
  ~Evaluator();
  Evaluator(Evaluator const&) = delete;
  Evaluator& operator=(Evaluator const&) = delete;

  DeviceInfo const& device() const noexcept;
  // Every candidate gets a report with exactly one status; Error only when kopt could not run
  // (the reference itself fails, the worker cannot start, ...).
  Result<EvalReport> evaluate(TaskSpec const& task, std::vector<CandidateSource> const& candidates,
                              ProgressCallback const& progress = {});
  // Starts compiling `candidates` in the background (all cores, in order), so that a later evaluate()
  // of them finds them built: a search hands over what it will ask for next while the GPU works.
  void compile_ahead(TaskSpec const& task, std::vector<CandidateSource> const& candidates);
  // Starts building `task`'s reference and baseline on a background thread (into the compile cache), so
  // that its first evaluate() finds them built. One at a time: waits for the previous one first.
  void prepare(TaskSpec const& task);
  // Builds `task`'s reference and baseline now (into the compile cache) and waits for them, after any
  // prepare() in flight. Error: one of them does not compile (invalid_spec, with nvcc's diagnostics).
  Status build_trusted_code(TaskSpec const& task);
  // Uses `other`'s PyTorch reference processes (docs/pytorch.md) from now on, and starts new ones where both
  // see them: the timing tiers of one search (KoptCandidateEvaluator) share one process per task instead of
  // each starting Python, torch and CUDA and compiling torch.compile again. Only for evaluators of one device
  // used from one thread at a time; false (nothing shared) when the two evaluate on different devices.
  bool share_torch_references(Evaluator const& other);
  // Runs `candidate` once on one size case (trial-0 inputs) under Nsight Compute, which profiles the
  // kernels launched inside that call only (an NVTX range), clocks left alone (--clock-control none).
  // Error: kopt could not run it (no ncu, the worker failed); a candidate that does not compile or
  // crashes comes back with that status.
  Result<ProfiledLaunch> profile_launch(TaskSpec const& task, CandidateSource const& candidate,
                                        ProfileLaunchOptions const& options);
  // `kopt energy`: joules per call of `candidate` (and of the task's reference) on one size case, trial-0
  // inputs, not verified. Error: kopt could not measure (no NVML or no energy counter: not_found; bad
  // options: invalid_argument; the worker or the reference failed); a candidate that does not compile or
  // crashes comes back with that status.
  Result<EnergyReport> measure_energy(TaskSpec const& task, CandidateSource const& candidate,
                                      EnergyOptions const& options);
  // `kopt calibrate`: measures this device's ceilings in the worker and caches them (device.hpp).
  Result<DeviceCalibration> calibrate();
  // Where this device's calibration is (or would be) cached.
  std::filesystem::path calibration_file() const;
  // Runs the reference (and baseline) alone on every size case: `kopt task check`.
  Result<TaskCheckReport> check_task(TaskSpec const& task, ProgressCallback const& progress = {});

  struct Impl;

 private:
  explicit Evaluator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Runs only the reference (and baseline) on every size case: `kopt task check`.
struct TaskCheckSize {
  std::string size;
  std::vector<std::pair<std::string, std::size_t>> buffer_elements;
  std::optional<double> bytes;
  std::optional<double> flops;
  std::optional<KernelTiming> reference;
  std::optional<KernelTiming> baseline;
  bool deterministic = true;
  bool reference_constant = false;  // warns: outputs are constant, cheats would pass
  std::string note;
};

struct TaskCheckReport {
  std::string task;
  DeviceInfo device;
  std::uint64_t seed = 0;
  std::vector<TaskCheckSize> sizes;
  std::vector<std::string> warnings;  // e.g. degenerate outputs, sizes smaller than a wave
};

}  // namespace kopt
