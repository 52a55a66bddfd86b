// kopt's one way to start a program: ChildProcess (argv, no shell; the environment replaced or
// overridden; a working directory; pipes to its stdin and stdout, its stderr to a file, a pipe of its own
// or stdout) and run_process (a prompt in, its output out, under a wall-clock limit). The GPU worker
// client and the compile pool keep a child and talk to it in lines; run_command (nvcc, cuobjdump,
// `--version` probes) and the external-command LLM backend run one to completion.
//
// Every descriptor kopt opens for a child is close-on-exec, and the child closes whatever else it
// inherited before exec, so a child started on one thread never holds another child's pipe open (its
// reader would wait for an EOF that never comes). Writes to a child that has exited fail with an
// error instead of raising SIGPIPE; the child starts with the default SIGPIPE and an empty signal mask
// whatever kopt's are. Pipe and spawn failures are Errors with ErrorCode::worker_error (the code the
// worker client has always reported for them).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kopt/result.hpp"

namespace kopt {

struct ExitInfo {
  bool exited = false;  // normal exit (else killed by a signal)
  int code = 0;         // exit code or signal number
  std::string describe() const;
};

// A waitpid() status as an ExitInfo.
ExitInfo exit_info_from_wait_status(int status);

// Where the child's stderr goes.
enum class StderrTarget {
  file,         // a temporary file, read back with stderr_tail(): a long-lived child the parent reads by
                // lines must never block on a stderr nobody drains
  pipe,         // a pipe of its own, drained by communicate() (its end kept: a failure is explained there)
  with_stdout,  // the stdout pipe: one stream in the order the child wrote it, as a terminal shows it
};

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is the program's path: no shell, no PATH lookup
  // "KEY=VALUE" entries that replace the environment entirely; nullopt: the parent's environment.
  std::optional<std::vector<std::string>> environment;
  std::vector<std::string> environment_overrides;  // "KEY=VALUE", set on top of the above
  std::filesystem::path working_directory;         // empty: the parent's
  StderrTarget stderr_target = StderrTarget::file;
  // The child leads a process group of its own, and killing it kills the group: a compiler driver's
  // children (nvcc starts cicc, ptxas, the host compiler) and a shell's die with it.
  bool own_process_group = false;
};

// What communicate() sends and keeps.
struct CommunicateOptions {
  std::string input;                                     // written to stdin, which is then closed
  std::optional<std::chrono::milliseconds> timeout;      // wall clock from the call; nullopt: none
  std::size_t max_output_bytes = std::size_t{16} << 20;  // stdout is kept from its start
  std::size_t max_error_bytes = 4000;                    // stderr is kept from its end
};

struct ProcessOutcome {
  ExitInfo exit;
  bool timed_out = false;  // killed (with its process group) when the time limit passed
  std::string output;      // stdout (and stderr with StderrTarget::with_stdout), its first max_output_bytes
  bool output_truncated = false;  // there was more; it was read and dropped, never left blocking the child
  std::string error_tail;         // the last max_error_bytes of stderr (pipe or file targets)
  std::optional<std::chrono::milliseconds> timeout;  // the limit it ran under

  // Ok when it exited with code 0; else an Error (io_error) that names `who` and says what happened: the
  // exit code, the signal or the time limit, and how its stderr ends.
  Status status(std::string const& who) const;
};

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(ChildProcess const&) = delete;
  ChildProcess& operator=(ChildProcess const&) = delete;

  // Errors only when the child cannot be started (pipes, fork, an empty argv). A program that cannot be
  // executed, or a working directory that cannot be entered, is a child that exits with 127 and says why
  // on its stderr (as a shell does).
  static Result<ChildProcess> spawn(ProcessSpec const& spec);
  // argv[0] is the program path. `env` replaces the environment entirely ("KEY=VALUE"); stderr to a file.
  static Result<ChildProcess> spawn(std::vector<std::string> const& argv,
                                    std::vector<std::string> const& env);

  bool running() const noexcept { return pid_ > 0; }
  int pid() const noexcept { return pid_; }  // -1 once reaped
  Status write_line(std::string const& line);
  // A line without its newline; nullopt on timeout; Error on EOF (the child closed stdout).
  Result<std::optional<std::string>> read_line(std::chrono::milliseconds timeout);
  // Writes `options.input` to stdin and closes it while reading stdout (and the stderr pipe) to their
  // end, then reaps the child; past the time limit, kills it. For a child that takes one input and gives
  // one output; it leaves the ChildProcess reaped.
  ProcessOutcome communicate(CommunicateOptions const& options);
  // SIGKILL (the group too, when it has one) and reap. Safe to call twice.
  ExitInfo kill_and_wait();
  // Waits for exit up to `timeout` after closing stdin, then kills.
  ExitInfo close_and_wait(std::chrono::milliseconds timeout);
  // The last `max_bytes` of what the child wrote to stderr (StderrTarget::file only).
  std::string stderr_tail(std::size_t max_bytes = 4000) const;

 private:
  void release() noexcept;
  void kill_now() noexcept;
  int pid_ = -1;
  bool own_process_group_ = false;
  int to_child_ = -1;
  int from_child_ = -1;
  int errors_from_child_ = -1;  // StderrTarget::pipe
  std::string buffer_;
  std::filesystem::path stderr_path_;
  std::optional<ExitInfo> exit_;
};

// Starts `spec` and communicates with it. Errors only when it cannot be started; an exit code, a signal
// or a timeout is in the outcome (ProcessOutcome::status turns them into an Error).
Result<ProcessOutcome> run_process(ProcessSpec const& spec, CommunicateOptions const& options);

}  // namespace kopt
