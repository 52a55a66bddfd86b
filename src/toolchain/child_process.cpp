#include "kopt/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

namespace kopt {
namespace {

std::string errno_text(char const* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

}  // namespace

ExitInfo exit_info_from_wait_status(int status) {
  ExitInfo info;
  if (WIFEXITED(status)) {
    info.exited = true;
    info.code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    info.code = WTERMSIG(status);
  }
  return info;
}

std::string ExitInfo::describe() const {
  if (exited) return "exited with code " + std::to_string(code);
  return std::string("killed by signal ") + std::to_string(code) + " (" + strsignal(code) + ")";
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) kill_and_wait();
  release();
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept {
  *this = std::move(other);
}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    if (pid_ > 0) kill_and_wait();
    release();
    pid_ = std::exchange(other.pid_, -1);
    to_child_ = std::exchange(other.to_child_, -1);
    from_child_ = std::exchange(other.from_child_, -1);
    buffer_ = std::move(other.buffer_);
    stderr_path_ = std::move(other.stderr_path_);
    exit_ = other.exit_;
  }
  return *this;
}

void ChildProcess::release() noexcept {
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  to_child_ = from_child_ = -1;
  if (!stderr_path_.empty()) {
    std::error_code ec;
    std::filesystem::remove(stderr_path_, ec);
    stderr_path_.clear();
  }
}

Result<ChildProcess> ChildProcess::spawn(std::vector<std::string> const& argv,
                                         std::vector<std::string> const& env) {
  if (argv.empty()) return make_error(ErrorCode::internal_error, "spawn: empty argv");
  int in_pipe[2];
  int out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0) return make_error(ErrorCode::worker_error, errno_text("pipe"));
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    return make_error(ErrorCode::worker_error, errno_text("pipe"));
  }
  auto close_pipes = [&] {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) ::close(fd);
  };
  char tmpl[] = "/tmp/kopt-child-stderr-XXXXXX";
  int err_fd = ::mkostemp(tmpl, O_CLOEXEC);
  if (err_fd < 0) {
    close_pipes();
    return make_error(ErrorCode::worker_error, errno_text("mkstemp"));
  }

  std::vector<char*> cargv;
  cargv.reserve(argv.size() + 1);
  for (auto const& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  std::vector<char*> cenv;
  cenv.reserve(env.size() + 1);
  for (auto const& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);

  std::string const exec_failed = argv[0] + ": exec failed\n";  // built before fork: no allocation after
  pid_t pid = ::fork();
  if (pid < 0) {
    auto error = make_error(ErrorCode::worker_error, errno_text("fork"));
    close_pipes();
    ::close(err_fd);
    ::unlink(tmpl);
    return error;
  }
  if (pid == 0) {
    ::dup2(in_pipe[0], STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    ::execve(cargv[0], cargv.data(), cenv.data());
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, exec_failed.data(), exec_failed.size());
    ::_exit(127);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_fd);
  ChildProcess child;
  child.pid_ = pid;
  child.to_child_ = in_pipe[1];
  child.from_child_ = out_pipe[0];
  child.stderr_path_ = tmpl;
  return child;
}

Status ChildProcess::write_line(std::string const& line) {
  std::string data = line + "\n";
  std::size_t off = 0;
  while (off < data.size()) {
    auto n = ::write(to_child_, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::worker_error, errno_text("write to child process"));
    }
    off += static_cast<std::size_t>(n);
  }
  return Ok{};
}

Result<std::optional<std::string>> ChildProcess::read_line(std::chrono::milliseconds timeout) {
  auto const deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto pos = buffer_.find('\n'); pos != std::string::npos) {
      std::string line = buffer_.substr(0, pos);
      buffer_.erase(0, pos + 1);
      return std::optional<std::string>(std::move(line));
    }
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::optional<std::string>();
    pollfd pfd{from_child_, POLLIN, 0};
    int r = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (r < 0 && errno != EINTR) return make_error(ErrorCode::worker_error, errno_text("poll"));
    if (r <= 0) continue;
    char chunk[65536];
    auto n = ::read(from_child_, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::worker_error, errno_text("read from child process"));
    }
    if (n == 0) return make_error(ErrorCode::worker_error, "the child process closed its output");
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

ExitInfo ChildProcess::kill_and_wait() {
  if (pid_ <= 0) return exit_.value_or(ExitInfo{});
  int status = 0;
  // It may have exited on its own already.
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    exit_ = exit_info_from_wait_status(status);
  } else {
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    exit_ = exit_info_from_wait_status(status);
  }
  pid_ = -1;
  return *exit_;
}

ExitInfo ChildProcess::close_and_wait(std::chrono::milliseconds timeout) {
  if (to_child_ >= 0) {
    ::close(to_child_);
    to_child_ = -1;
  }
  auto const deadline = std::chrono::steady_clock::now() + timeout;
  while (pid_ > 0 && std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      exit_ = exit_info_from_wait_status(status);
      pid_ = -1;
      return *exit_;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return kill_and_wait();
}

std::string ChildProcess::stderr_tail(std::size_t max_bytes) const {
  if (stderr_path_.empty()) return {};
  std::ifstream in(stderr_path_, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string all = buffer.str();
  if (all.size() > max_bytes) all = "..." + all.substr(all.size() - max_bytes);
  return all;
}

}  // namespace kopt
