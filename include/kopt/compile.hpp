// Building candidates: kernel mode (device code only, NVRTC in-process, ~13 ms) and launcher mode
// (a .cu with an extern "C" host launcher, nvcc into a shared object, ~1.3 s). Results are cached on
// disk by content hash (source, flags, arch, toolkit version).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt {

namespace detail {
class CompilePool;
}  // namespace detail

enum class CandidateMode { kernel, launcher };
std::string_view to_string(CandidateMode mode) noexcept;

struct CompileOptions {
  std::string arch;                      // "sm_90"; empty = detected GPU, else sm_90
  std::vector<std::string> gencode;      // extra nvcc -gencode values (launcher mode)
  std::vector<std::string> extra_flags;  // appended to every compile (kopt eval: candidates only)
  std::filesystem::path cache_dir;       // empty = $KOPT_CACHE_DIR or ~/.cache/kopt
  std::filesystem::path cuda_home;       // empty = $CUDA_HOME, else the nvcc on PATH, else /usr/local/cuda
  unsigned jobs = 0;                     // parallel compiles; 0 = all cores
  // The kopt-compile executable: kernel-mode compiles run in `jobs` persistent kopt-compile processes
  // (started on first use) instead of threads of this process. Empty = threads. See find_compile_server.
  std::filesystem::path compile_server;
};

struct CompileRequest {
  CandidateMode mode = CandidateMode::kernel;
  std::string source;            // full text
  std::filesystem::path origin;  // file name used in diagnostics
  std::string entry;             // launcher symbol (launcher) or __global__ name (kernel)
  std::vector<std::filesystem::path> include_dirs;
  std::vector<std::string> libraries;  // launcher mode: cublas, cusparse, ...
  std::vector<std::string> flags;      // per-request extra flags (e.g. -DTILE=64)
};

// Static resource usage reported by ptxas / the CUBIN (registers, spills, shared memory).
struct ResourceUsage {
  int registers = -1;
  int spill_stores_bytes = -1;
  int spill_loads_bytes = -1;
  int static_shared_bytes = -1;
  int stack_bytes = -1;
};

struct Artifact {
  CandidateMode mode = CandidateMode::kernel;
  std::filesystem::path path;  // .cubin (kernel) or .so (launcher)
  std::string symbol;          // launcher symbol or lowered kernel name
  std::string key;             // content hash of everything that went into the build
  std::string arch;            // e.g. sm_90
  ResourceUsage resources;
};

struct CompileOutcome {
  bool ok = false;
  Artifact artifact;        // valid when ok
  std::string diagnostics;  // trimmed compiler messages (errors, or warnings when ok)
  double compile_ms = 0.0;
  bool cache_hit = false;
};

class Compiler {
 public:
  // Fails only when the toolchain is unusable (NVRTC cannot be loaded, cache dir unwritable).
  static Result<Compiler> create(CompileOptions options);

  // A candidate's own errors come back as ok=false with diagnostics; Error means kopt could not run.
  Result<CompileOutcome> compile(CompileRequest const& request) const;
  // Compiles all requests in parallel on options.jobs threads (each handing its kernel-mode requests to
  // a kopt-compile process when options.compile_server is set); results in request order.
  std::vector<Result<CompileOutcome>> compile_all(std::vector<CompileRequest> const& requests) const;

  CompileOptions const& options() const noexcept { return options_; }
  std::string const& toolkit_version() const noexcept { return toolkit_version_; }

 private:
  CompileOptions options_;
  std::string toolkit_version_;
  std::filesystem::path nvcc_;
  std::shared_ptr<detail::CompilePool> pool_;  // kopt-compile processes, shared by copies; null = threads
};

// The kopt-compile executable for CompileOptions.compile_server: $KOPT_COMPILE_SERVER when set to a path
// ("off" or "0" turns the pool off), else ("on" or unset) kopt-compile next to the running executable. Empty
// when there is none (or it is not executable): compiles then run on threads, and the reason is written to
// stderr once per process (always when KOPT_COMPILE_SERVER names a missing file, else only with KOPT_DEBUG
// set). The evaluator compiles kernel-mode candidates with it (docs/compile.md, "The compile pool": the pool
// is the default since 2026-12-01, measured faster than threads in whole searches on the H200 hosts).
std::filesystem::path find_compile_server();

// Compiles in the background on the compiler's `jobs` threads, first submitted, first started, so a
// search can compile the candidates it will ask for next while the GPU works on the current ones.
// A request submitted again while it is queued, running, or finished but not yet taken is compiled
// once. Destroying the queue drops what has not started and waits for what has.
class CompileQueue {
 public:
  explicit CompileQueue(Compiler compiler);
  ~CompileQueue();
  CompileQueue(CompileQueue const&) = delete;
  CompileQueue& operator=(CompileQueue const&) = delete;
  CompileQueue(CompileQueue&&) = delete;
  CompileQueue& operator=(CompileQueue&&) = delete;

  void submit(CompileRequest const& request);
  // The outcome of `request`, handed over once: waits for its compile. A request not submitted, or
  // submitted but not started, goes ahead of everything still queued.
  Result<CompileOutcome> take(CompileRequest const& request);
  std::size_t queued() const;  // submitted, not started
  std::size_t held() const;    // submitted and not yet taken (queued, running or finished)

  struct State;

 private:
  std::shared_ptr<State> state_;
  std::vector<std::thread> threads_;
};

// Which mode a source is written for: launcher when it defines a host function named `entry`
// (extern "C", not __global__), kernel when it defines a __global__ function named `entry`.
std::optional<CandidateMode> detect_mode(std::string const& source, std::string const& entry);

// A candidate may override the task's kernel-mode launch geometry with one comment line:
//   // kopt:launch grid=(ceil_div(N,256)) block=(256) shared=(0) kernel=name args=(c, a, b, i32(N))
// Fields are optional; missing ones keep the task's values. `args` lists the kernel's arguments when
// they are not the launcher's parameters in order: a parameter by name, or a computed value (i32/i64/
// u32/u64 of an integer expression over the size case's scalars, f32/f64 of a number); the names are
// checked against the task when the candidate is planned. Errors name the line.
Result<LaunchSpec> apply_launch_annotation(std::string const& source, LaunchSpec const& base);
// The launch geometry of a kernel-mode candidate: the task's [launch] with the candidate's annotation
// applied, or, for a task without [launch], the annotation alone (kernel defaults to `entry`, shared
// memory to 0). Errors: invalid_spec for a malformed annotation (naming the line), not_found when
// neither gives both grid and block.
Result<LaunchSpec> candidate_launch(std::string const& source, std::optional<LaunchSpec> const& task_launch,
                                    std::string const& entry);

// Trims a compiler log to what a person needs: error/warning lines with file:line, at most
// `max_lines`, with a count of what was left out.
std::string trim_compiler_log(std::string const& log, std::size_t max_lines = 30);

}  // namespace kopt
