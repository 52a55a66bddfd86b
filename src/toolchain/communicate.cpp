// Running a child to completion: its input written while its output is read (a child that fills its
// stdout pipe before reading all its stdin would otherwise deadlock with us), the output bounded, the
// time limit enforced on the whole process group, and the outcome turned into a message.
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <thread>

#include "kopt/child_process.hpp"
#include "toolchain/child_io.hpp"

namespace kopt {
namespace {

using Clock = std::chrono::steady_clock;

// Milliseconds until `deadline` for poll(2): at least 1 while any time is left, -1 without a deadline,
// at most a second so that a deadline far away is still checked.
int poll_wait_ms(std::optional<Clock::time_point> const& deadline) {
  if (!deadline) return -1;
  auto const left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
  return static_cast<int>(std::clamp<long long>(left.count(), 0, 1000));
}

bool past(std::optional<Clock::time_point> const& deadline) {
  return deadline && Clock::now() >= *deadline;
}

}  // namespace

ProcessOutcome ChildProcess::communicate(CommunicateOptions const& options) {
  ProcessOutcome outcome;
  outcome.timeout = options.timeout;
  std::optional<Clock::time_point> deadline;
  if (options.timeout) deadline = Clock::now() + *options.timeout;

  auto keep_output = [&](char const* data, std::size_t size) {
    std::size_t const room =
        options.max_output_bytes - std::min(options.max_output_bytes, outcome.output.size());
    std::size_t const take = std::min(room, size);
    outcome.output.append(data, take);
    if (take < size) outcome.output_truncated = true;  // read all the same: the child never blocks on us
  };
  auto keep_error = [&](char const* data, std::size_t size) {
    outcome.error_tail.append(data, size);
    if (outcome.error_tail.size() > 2 * options.max_error_bytes) {
      outcome.error_tail.erase(0, outcome.error_tail.size() - options.max_error_bytes);
    }
  };
  keep_output(buffer_.data(), buffer_.size());  // what read_line had read ahead
  buffer_.clear();

  std::size_t written = 0;
  if (options.input.empty()) detail::close_descriptor(to_child_);
  if (to_child_ >= 0) ::fcntl(to_child_, F_SETFL, ::fcntl(to_child_, F_GETFL) | O_NONBLOCK);
  std::array<char, 65536> chunk{};
  bool failed = false;  // poll(2) itself failed: nothing more can be read
  while (from_child_ >= 0 || errors_from_child_ >= 0) {
    if (past(deadline)) {
      outcome.timed_out = true;
      break;
    }
    std::array<pollfd, 3> fds{pollfd{to_child_, POLLOUT, 0}, pollfd{from_child_, POLLIN, 0},
                              pollfd{errors_from_child_, POLLIN, 0}};  // poll skips a descriptor of -1
    int const ready = ::poll(fds.data(), fds.size(), poll_wait_ms(deadline));
    if (ready < 0 && errno != EINTR) {
      failed = true;
      break;
    }
    if (ready <= 0) continue;
    if (to_child_ >= 0 && (fds[0].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
      auto const n = detail::write_without_sigpipe(to_child_, options.input.data() + written,
                                                   options.input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      // A child that exits without reading all of its input is not an error here: its exit status says.
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == options.input.size()) {
        detail::close_descriptor(to_child_);
      }
    }
    for (std::size_t which : {std::size_t{1}, std::size_t{2}}) {
      int& fd = which == 1 ? from_child_ : errors_from_child_;
      if (fd < 0 || (fds[which].revents & (POLLIN | POLLERR | POLLHUP)) == 0) continue;
      auto const n = ::read(fd, chunk.data(), chunk.size());
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        detail::close_descriptor(fd);  // EOF: every writer (the child and what it started) is done
        continue;
      }
      if (which == 1) {
        keep_output(chunk.data(), static_cast<std::size_t>(n));
      } else {
        keep_error(chunk.data(), static_cast<std::size_t>(n));
      }
    }
  }
  detail::close_descriptor(to_child_);
  detail::close_descriptor(from_child_);
  detail::close_descriptor(errors_from_child_);

  // Its output is closed; the child itself is given what is left of the time limit to exit.
  while (pid_ > 0 && !outcome.timed_out && !failed) {
    int status = 0;
    pid_t const done = ::waitpid(pid_, &status, deadline ? WNOHANG : 0);
    if (done == pid_) {
      exit_ = exit_info_from_wait_status(status);
      pid_ = -1;
    } else if (done < 0 && errno != EINTR) {
      failed = true;
    } else if (past(deadline)) {
      outcome.timed_out = true;
    } else if (done == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  outcome.exit = pid_ > 0 ? kill_and_wait() : exit_.value_or(ExitInfo{});

  if (!stderr_path_.empty())
    outcome.error_tail = detail::read_file_tail(stderr_path_, options.max_error_bytes);
  if (outcome.error_tail.size() > options.max_error_bytes) {
    outcome.error_tail.erase(0, outcome.error_tail.size() - options.max_error_bytes);
  }
  return outcome;
}

Status ProcessOutcome::status(std::string const& who) const {
  std::string const stderr_note = error_tail.empty() ? "" : "; its stderr ends with:\n" + error_tail;
  if (timed_out) {
    std::string const limit = timeout ? " after " + std::to_string(timeout->count()) + " ms" : "";
    return make_error(ErrorCode::io_error, who + " timed out" + limit + stderr_note);
  }
  if (exit.exited && exit.code == 0) return Ok{};
  return make_error(ErrorCode::io_error, who + " failed (" + exit.describe() + ")" + stderr_note);
}

Result<ProcessOutcome> run_process(ProcessSpec const& spec, CommunicateOptions const& options) {
  auto child = ChildProcess::spawn(spec);
  if (!child) return child.error();
  return child->communicate(options);
}

}  // namespace kopt
