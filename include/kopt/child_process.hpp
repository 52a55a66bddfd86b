// A child process connected by pipes (its stdin and stdout), with line-oriented reads that time out.
// The child's stderr is captured to a file so a crash message can be reported. Used by the GPU worker
// client (kopt-worker) and the compile pool (kopt-compile). Pipe and spawn failures are Errors with
// ErrorCode::worker_error (the code the worker client has always reported for them).
#pragma once

#include <chrono>
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

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(ChildProcess const&) = delete;
  ChildProcess& operator=(ChildProcess const&) = delete;

  // argv[0] is the program path. `env` replaces the environment entirely ("KEY=VALUE").
  static Result<ChildProcess> spawn(std::vector<std::string> const& argv,
                                    std::vector<std::string> const& env);

  bool running() const noexcept { return pid_ > 0; }
  int pid() const noexcept { return pid_; }  // -1 once reaped
  Status write_line(std::string const& line);
  // A line without its newline; nullopt on timeout; Error on EOF (the child closed stdout).
  Result<std::optional<std::string>> read_line(std::chrono::milliseconds timeout);
  // SIGKILL and reap. Safe to call twice.
  ExitInfo kill_and_wait();
  // Waits for exit up to `timeout` after closing stdin, then kills.
  ExitInfo close_and_wait(std::chrono::milliseconds timeout);
  // The last `max_bytes` of what the child wrote to stderr.
  std::string stderr_tail(std::size_t max_bytes = 4000) const;

 private:
  void release() noexcept;
  int pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string buffer_;
  std::filesystem::path stderr_path_;
  std::optional<ExitInfo> exit_;
};

}  // namespace kopt
