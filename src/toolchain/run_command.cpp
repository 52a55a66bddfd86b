// Runs a shell command in a child process with stdout and stderr merged into one bounded pipe.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>

#include "kopt/toolchain.hpp"

namespace kopt {
namespace {

constexpr std::size_t kMaxOutputBytes = std::size_t{1} << 20;  // 1 MiB
constexpr char kTruncatedNote[] = "\n[kopt: output truncated at 1 MiB]\n";

int decode_wait_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

int wait_for_child(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return decode_wait_status(status);
}

// `timeout_ms` < 0 means no limit.
CommandResult run_with_limit(std::string const& command, long long timeout_ms) {
  CommandResult result;
  int fds[2];
  // O_CLOEXEC: children forked concurrently by other threads must not inherit our pipe, or our
  // read end would not see EOF until they exit.
  if (pipe2(fds, O_CLOEXEC) != 0) {
    result.output = std::string("kopt: cannot create a pipe: ") + std::strerror(errno);
    return result;
  }
  pid_t const pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    result.output = std::string("kopt: cannot fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec. Own process group so that a timeout can
    // kill the whole tree (nvcc starts cicc, ptxas, the host compiler).
    setpgid(0, 0);
    int const devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the group exists before a possible kill
  close(fds[1]);

  auto const deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  bool truncated = false;
  char buffer[65536];
  for (;;) {
    int wait_ms = -1;
    if (timeout_ms >= 0) {
      auto const left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        result.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left.count(), 1000LL * 60 * 60));
    }
    pollfd pfd{fds[0], POLLIN, 0};
    int const ready = poll(&pfd, 1, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (ready == 0) continue;  // the deadline check above decides
    ssize_t const n = read(fds[0], buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      break;
    }
    if (n == 0) break;  // EOF: every writer has exited
    // Keep draining past the cap so that the child never blocks on a full pipe.
    std::size_t const room = kMaxOutputBytes - std::min(kMaxOutputBytes, result.output.size());
    std::size_t const take = std::min(room, static_cast<std::size_t>(n));
    result.output.append(buffer, take);
    if (take < static_cast<std::size_t>(n)) truncated = true;
  }
  close(fds[0]);
  if (result.timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
  }
  result.exit_code = wait_for_child(pid);
  if (truncated) result.output += kTruncatedNote;
  return result;
}

}  // namespace

CommandResult run_command(std::string const& command) {
  return run_with_limit(command, -1);
}

CommandResult run_command(std::string const& command, std::chrono::milliseconds timeout) {
  return run_with_limit(command, std::max<long long>(0, timeout.count()));
}

std::string shell_quote(std::string const& word) {
  std::string quoted = "'";
  for (char const c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

}  // namespace kopt
