// Starting a child (fork and exec, with only async-signal-safe calls between them: kopt has threads)
// and its lifetime: line I/O for long-lived children, kill and reap. communicate() and run_process()
// are in communicate.cpp.
#include "kopt/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <string_view>
#include <thread>
#include <utility>

#include "toolchain/child_io.hpp"

extern char** environ;  // NOLINT(readability-redundant-declaration)

namespace kopt {
namespace {

using detail::close_descriptor;
using detail::errno_text;

// The child's environment: `spec.environment` or the parent's, then each override replacing the
// variable of its name.
Result<std::vector<std::string>> child_environment(ProcessSpec const& spec) {
  std::vector<std::string> entries;
  if (spec.environment) {
    entries = *spec.environment;
  } else {
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) entries.emplace_back(*entry);
  }
  for (std::string const& override_entry : spec.environment_overrides) {
    auto const equals = override_entry.find('=');
    if (equals == std::string::npos || equals == 0) {
      return make_error(ErrorCode::internal_error,
                        "spawn: environment override '" + override_entry + "' is not KEY=VALUE");
    }
    std::string_view const key(override_entry.data(), equals + 1);  // with its '='
    std::erase_if(entries, [&](std::string const& entry) { return entry.starts_with(key); });
    entries.push_back(override_entry);
  }
  return entries;
}

std::vector<char*> as_pointers(std::vector<std::string> const& words) {
  std::vector<char*> pointers;
  pointers.reserve(words.size() + 1);
  // exec* takes char* const[] but does not write through it.
  for (auto const& word : words)
    pointers.push_back(const_cast<char*>(word.c_str()));  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  pointers.push_back(nullptr);
  return pointers;
}

// The highest descriptor number to close in the child when close_range(2) is missing (kernels before 5.9).
unsigned descriptor_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 65536;
  return static_cast<unsigned>(std::min<rlim_t>(limit.rlim_cur, 1U << 20));
}

void write_message(std::string_view text, char const* reason) {
  [[maybe_unused]] auto n1 = ::write(STDERR_FILENO, text.data(), text.size());
  [[maybe_unused]] auto n2 = ::write(STDERR_FILENO, reason, std::strlen(reason));
  [[maybe_unused]] auto n3 = ::write(STDERR_FILENO, "\n", 1);
}

struct ChildSetup {
  int stdin_fd = -1;
  int stdout_fd = -1;
  int stderr_fd = -1;
  bool own_process_group = false;
  char const* working_directory = nullptr;  // null: stay
  unsigned descriptor_limit = 0;
  std::string_view chdir_failed;
  std::string_view exec_failed;
};

// In the forked child: only async-signal-safe calls. Never returns.
[[noreturn]] void become_child(ChildSetup const& setup, char* const* argv, char* const* envp) {
  if (setup.own_process_group) ::setpgid(0, 0);
  // A child starts as a shell would start it, whatever kopt did to its own signals.
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);  // NOLINT(concurrency-mt-unsafe): the child has one thread
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &default_action, nullptr);
  ::dup2(setup.stdin_fd, STDIN_FILENO);
  ::dup2(setup.stdout_fd, STDOUT_FILENO);
  ::dup2(setup.stderr_fd, STDERR_FILENO);
  // Whatever else kopt had open (a descriptor some library opened without O_CLOEXEC) stays with kopt.
  if (::close_range(STDERR_FILENO + 1, ~0U, 0) != 0) {
    for (unsigned fd = STDERR_FILENO + 1; fd < setup.descriptor_limit; ++fd) ::close(static_cast<int>(fd));
  }
  if (setup.working_directory != nullptr && ::chdir(setup.working_directory) != 0) {
    write_message(setup.chdir_failed, ::strerrordesc_np(errno));
    ::_exit(127);
  }
  ::execve(argv[0], argv, envp);
  write_message(setup.exec_failed, ::strerrordesc_np(errno));
  ::_exit(127);
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
  char const* name = ::sigdescr_np(code);  // strsignal without its shared buffer
  return std::string("killed by signal ") + std::to_string(code) + " (" +
         (name != nullptr ? name : "unknown") + ")";
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
    own_process_group_ = other.own_process_group_;
    to_child_ = std::exchange(other.to_child_, -1);
    from_child_ = std::exchange(other.from_child_, -1);
    errors_from_child_ = std::exchange(other.errors_from_child_, -1);
    buffer_ = std::move(other.buffer_);
    stderr_path_ = std::exchange(other.stderr_path_, {});
    exit_ = other.exit_;
  }
  return *this;
}

void ChildProcess::release() noexcept {
  close_descriptor(to_child_);
  close_descriptor(from_child_);
  close_descriptor(errors_from_child_);
  if (!stderr_path_.empty()) {
    std::error_code ec;
    std::filesystem::remove(stderr_path_, ec);
    stderr_path_.clear();
  }
}

Result<ChildProcess> ChildProcess::spawn(std::vector<std::string> const& argv,
                                         std::vector<std::string> const& env) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.environment = env;
  return spawn(spec);
}

Result<ChildProcess> ChildProcess::spawn(ProcessSpec const& spec) {
  if (spec.argv.empty()) return make_error(ErrorCode::internal_error, "spawn: empty argv");
  auto environment = child_environment(spec);
  if (!environment) return environment.error();

  // Every descriptor below is the parent's until handed to `child`; the guard closes what is left.
  ChildProcess child;
  std::array<int, 2> in{-1, -1};
  std::array<int, 2> out{-1, -1};
  std::array<int, 2> err{-1, -1};
  int err_file = -1;
  struct CloseLeft {  // NOLINT(cppcoreguidelines-special-member-functions): a scope guard, never copied
    std::array<int*, 7> fds;
    ~CloseLeft() {
      for (int* fd : fds) close_descriptor(*fd);
    }
  } const close_left{{in.data(), &in[1], out.data(), &out[1], err.data(), &err[1], &err_file}};

  if (!detail::open_child_pipe(in) || !detail::open_child_pipe(out)) {
    return make_error(ErrorCode::worker_error, errno_text("pipe"));
  }
  int child_stderr = out[1];
  if (spec.stderr_target == StderrTarget::pipe) {
    if (!detail::open_child_pipe(err)) return make_error(ErrorCode::worker_error, errno_text("pipe"));
    child_stderr = err[1];
  } else if (spec.stderr_target == StderrTarget::file) {
    char path[] = "/tmp/kopt-child-stderr-XXXXXX";
    err_file = ::mkostemp(path, O_CLOEXEC);
    if (err_file < 0) return make_error(ErrorCode::worker_error, errno_text("mkstemp"));
    child.stderr_path_ = path;  // removed by `child` on every path from here
    if (!detail::move_above_stdio(err_file)) return make_error(ErrorCode::worker_error, errno_text("fcntl"));
    child_stderr = err_file;
  }

  // Everything the child needs is built before fork: it may not allocate.
  std::vector<char*> const argv = as_pointers(spec.argv);
  std::vector<char*> const envp = as_pointers(*environment);
  std::string const working_directory = spec.working_directory.string();
  std::string const chdir_failed = "cannot enter the working directory " + working_directory + ": ";
  std::string const exec_failed = spec.argv[0] + ": exec failed: ";
  ChildSetup const setup{in[0],
                         out[1],
                         child_stderr,
                         spec.own_process_group,
                         working_directory.empty() ? nullptr : working_directory.c_str(),
                         descriptor_limit(),
                         chdir_failed,
                         exec_failed};

  pid_t const pid = ::fork();
  if (pid < 0) return make_error(ErrorCode::worker_error, errno_text("fork"));
  if (pid == 0) become_child(setup, argv.data(), envp.data());
  // Also from the parent, so that the group exists before a kill can be aimed at it (EACCES once the
  // child has exec'd: it made the group itself by then).
  if (spec.own_process_group) ::setpgid(pid, pid);
  child.pid_ = pid;
  child.own_process_group_ = spec.own_process_group;
  child.to_child_ = std::exchange(in[1], -1);
  child.from_child_ = std::exchange(out[0], -1);
  child.errors_from_child_ = std::exchange(err[0], -1);
  return child;
}

Status ChildProcess::write_line(std::string const& line) {
  std::string data = line + "\n";
  std::size_t off = 0;
  while (off < data.size()) {
    auto n = detail::write_without_sigpipe(to_child_, data.data() + off, data.size() - off);
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

void ChildProcess::kill_now() noexcept {
  if (pid_ <= 0) return;
  // The group first: once the leader is reaped its number may be reused. Killing a child that has
  // already exited (a zombie) leaves its exit status as it was.
  if (own_process_group_) ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
}

ExitInfo ChildProcess::kill_and_wait() {
  if (pid_ <= 0) return exit_.value_or(ExitInfo{});
  kill_now();
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exit_ = exit_info_from_wait_status(status);
  pid_ = -1;
  return *exit_;
}

ExitInfo ChildProcess::close_and_wait(std::chrono::milliseconds timeout) {
  close_descriptor(to_child_);
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
  std::string tail = detail::read_file_tail(stderr_path_, max_bytes + 1);
  if (tail.size() > max_bytes) tail = "..." + tail.substr(tail.size() - max_bytes);
  return tail;
}

}  // namespace kopt
