#include "toolchain/child_io.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "kopt/text.hpp"

namespace kopt::detail {

std::string errno_text(char const* what) {
  return std::string(what) + ": " + kopt::errno_text(errno);
}

void close_descriptor(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

bool move_above_stdio(int& fd) {
  if (fd > STDERR_FILENO) return true;
  int const moved = ::fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  int const saved = errno;
  close_descriptor(fd);
  errno = saved;
  fd = moved;
  return moved >= 0;
}

bool open_child_pipe(std::array<int, 2>& ends) {
  if (::pipe2(ends.data(), O_CLOEXEC) != 0) return false;
  if (move_above_stdio(ends[0]) && move_above_stdio(ends[1])) return true;
  int const saved = errno;
  close_descriptor(ends[0]);
  close_descriptor(ends[1]);
  errno = saved;
  return false;
}

ssize_t write_without_sigpipe(int fd, char const* data, std::size_t size) {
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  sigset_t pending;
  sigpending(&pending);
  bool const already_pending = sigismember(&pending, SIGPIPE) == 1;  // not ours to take back
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  ssize_t const written = ::write(fd, data, size);
  int const saved = errno;
  // Also after a partial write: a reader that goes away mid-write raises SIGPIPE with a byte count.
  sigpending(&pending);
  if (!already_pending && sigismember(&pending, SIGPIPE) == 1) {
    timespec const no_wait{};
    while (sigtimedwait(&pipe_signal, nullptr, &no_wait) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  errno = saved;
  return written;
}

std::string read_file_tail(std::filesystem::path const& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string all = buffer.str();
  if (all.size() > max_bytes) all.erase(0, all.size() - max_bytes);
  return all;
}

}  // namespace kopt::detail
