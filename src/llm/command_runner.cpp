#include "llm/command_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace kopt::llm {
namespace {

constexpr std::size_t kMaxOutputBytes = std::size_t{16} << 20;
constexpr std::size_t kMaxErrorBytes = 4000;

std::string errno_text(char const* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Reaps `pid`, killing its process group once `deadline` has passed.
ExitInfo reap(pid_t pid, std::chrono::steady_clock::time_point deadline, bool& timed_out) {
  int status = 0;
  for (;;) {
    pid_t const done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return exit_info_from_wait_status(status);
    if (done < 0 && errno != EINTR) return ExitInfo{};
    if (std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return exit_info_from_wait_status(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace

Result<CommandOutcome> run_with_input(std::vector<std::string> const& argv, std::string const& input,
                                      std::chrono::milliseconds timeout) {
  if (argv.empty()) return make_error(ErrorCode::internal_error, "run_with_input: empty argv");
  static std::once_flag ignore_sigpipe;
  std::call_once(ignore_sigpipe, [] { ::signal(SIGPIPE, SIG_IGN); });  // a command that exits early
  std::array<int, 2> in{-1, -1};
  std::array<int, 2> out{-1, -1};
  std::array<int, 2> err{-1, -1};
  auto close_all = [&] {
    for (auto* pipe : {&in, &out, &err}) {
      close_fd((*pipe)[0]);
      close_fd((*pipe)[1]);
    }
  };
  for (auto* pipe : {&in, &out, &err}) {
    if (::pipe2(pipe->data(), O_CLOEXEC) != 0) {
      auto error = make_error(ErrorCode::io_error, errno_text("pipe"));
      close_all();
      return error;
    }
  }
  std::vector<char*> cargv;
  cargv.reserve(argv.size() + 1);
  for (auto const& arg : argv) cargv.push_back(const_cast<char*>(arg.c_str()));
  cargv.push_back(nullptr);
  std::string const exec_failed = argv[0] + ": cannot execute: ";

  pid_t const pid = ::fork();
  if (pid < 0) {
    auto error = make_error(ErrorCode::io_error, errno_text("fork"));
    close_all();
    return error;
  }
  if (pid == 0) {  // only async-signal-safe calls until exec
    ::setpgid(0, 0);
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    ::execve(cargv[0], cargv.data(), environ);
    char const* reason = std::strerror(errno);
    [[maybe_unused]] auto n1 = ::write(STDERR_FILENO, exec_failed.data(), exec_failed.size());
    [[maybe_unused]] auto n2 = ::write(STDERR_FILENO, reason, std::strlen(reason));
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  close_fd(in[0]);
  close_fd(out[1]);
  close_fd(err[1]);
  ::fcntl(in[1], F_SETFL, ::fcntl(in[1], F_GETFL) | O_NONBLOCK);
  if (input.empty()) close_fd(in[1]);

  CommandOutcome outcome;
  auto const deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t written = 0;
  std::array<char, 65536> buffer{};
  while (out[0] >= 0 || err[0] >= 0) {
    auto const left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    std::array<pollfd, 3> fds{pollfd{in[1], POLLOUT, 0}, pollfd{out[0], POLLIN, 0},
                              pollfd{err[0], POLLIN, 0}};
    int const ready =
        ::poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    if (in[1] >= 0 && (fds[0].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
      auto const n = ::write(in[1], input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) close_fd(in[1]);
    }
    for (int which : {1, 2}) {
      int& fd = which == 1 ? out[0] : err[0];
      if (fd < 0 || (fds[static_cast<std::size_t>(which)].revents & (POLLIN | POLLERR | POLLHUP)) == 0)
        continue;
      auto const n = ::read(fd, buffer.data(), buffer.size());
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        close_fd(fd);
        continue;
      }
      std::string& into = which == 1 ? outcome.output : outcome.error_tail;
      into.append(buffer.data(), static_cast<std::size_t>(n));
      if (which == 1 && into.size() > kMaxOutputBytes) into.resize(kMaxOutputBytes);
      if (which == 2 && into.size() > 2 * kMaxErrorBytes) into.erase(0, into.size() - kMaxErrorBytes);
    }
  }
  close_all();
  outcome.exit = reap(pid, deadline, outcome.timed_out);
  if (outcome.error_tail.size() > kMaxErrorBytes) {
    outcome.error_tail.erase(0, outcome.error_tail.size() - kMaxErrorBytes);
  }
  return outcome;
}

}  // namespace kopt::llm
