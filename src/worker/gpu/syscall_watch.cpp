#include "worker/gpu/syscall_watch.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <utility>

#include "kopt/text.hpp"
#include "worker/gpu/syscall_supervisor.hpp"

namespace kopt::worker {
namespace {

constexpr std::size_t kMaxPolicyBytes = 1 << 20;

void close_fd(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// One message of text with room for one descriptor (SCM_RIGHTS): the hand-over's shape on both sides.
struct DescriptorMessage {
  iovec io{};
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int))> control{};
  msghdr message{};

  DescriptorMessage(char* text, std::size_t size) {
    io = iovec{text, size};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control.data();
    message.msg_controllen = control.size();
  }
  DescriptorMessage(DescriptorMessage const&) = delete;
  DescriptorMessage& operator=(DescriptorMessage const&) = delete;
  ~DescriptorMessage() = default;
};

// In the supervisor: the policy and the listener, sent once by hand_over().
bool receive_hand_over(int channel, std::string& text, int& listener) {
  text.resize(kMaxPolicyBytes);
  DescriptorMessage received(text.data(), text.size());
  msghdr& message = received.message;
  ssize_t n = 0;
  do {
    n = ::recvmsg(channel, &message, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return false;
  text.resize(static_cast<std::size_t>(n));
  cmsghdr* header = CMSG_FIRSTHDR(&message);
  if (header == nullptr || header->cmsg_type != SCM_RIGHTS) return false;
  std::memcpy(&listener, CMSG_DATA(header), sizeof listener);
  return true;
}

// The supervisor's life: holds nothing of the worker's but its three channels, dies with it.
[[noreturn]] void supervise(pid_t worker, int channel, int memory, int report) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != worker) ::_exit(0);
  int const null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd < 3; ++fd) ::dup2(null_fd, fd);  // kopt waits for the worker's pipes to close
  long const max_fd = ::sysconf(_SC_OPEN_MAX);
  for (int fd = 3; fd < (max_fd > 0 ? max_fd : 1024); ++fd) {
    if (fd != channel && fd != memory && fd != report) ::close(fd);
  }
  std::string text;
  int listener = -1;
  if (!receive_hand_over(channel, text, listener)) ::_exit(0);
  auto policy = watch_policy_from_text(text);
  if (!policy) ::_exit(1);
  run_supervisor(SupervisorChannels{listener, memory, report}, *policy);
  ::_exit(0);
}

}  // namespace

Result<SyscallWatch> SyscallWatch::start() {
  int const memory = ::open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
  if (memory < 0) return make_error(ErrorCode::io_error, std::string("/proc/self/mem: ") + errno_text(errno));
  int channel[2];
  int report[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, channel) != 0) {
    ::close(memory);
    return make_error(ErrorCode::io_error, std::string("socketpair: ") + errno_text(errno));
  }
  if (::pipe2(report, O_CLOEXEC | O_NONBLOCK) != 0) {
    ::close(memory);
    ::close(channel[0]);
    ::close(channel[1]);
    return make_error(ErrorCode::io_error, std::string("pipe: ") + errno_text(errno));
  }
  pid_t const worker = ::getpid();
  pid_t const pid = ::fork();
  if (pid == 0) supervise(worker, channel[1], memory, report[1]);
  ::close(memory);  // the supervisor's copy reads this process's memory; this one is not needed here
  ::close(channel[1]);
  ::close(report[1]);
  if (pid < 0) {
    ::close(channel[0]);
    ::close(report[0]);
    return make_error(ErrorCode::io_error, std::string("fork: ") + errno_text(errno));
  }
  SyscallWatch watch;
  watch.pid_ = pid;
  watch.channel_ = channel[0];
  watch.reports_ = report[0];
  return watch;
}

SyscallWatch::SyscallWatch(SyscallWatch&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      channel_(std::exchange(other.channel_, -1)),
      reports_(std::exchange(other.reports_, -1)),
      partial_(std::move(other.partial_)) {}

SyscallWatch& SyscallWatch::operator=(SyscallWatch&& other) noexcept {
  if (this != &other) {
    close_all();
    pid_ = std::exchange(other.pid_, -1);
    channel_ = std::exchange(other.channel_, -1);
    reports_ = std::exchange(other.reports_, -1);
    partial_ = std::move(other.partial_);
  }
  return *this;
}

SyscallWatch::~SyscallWatch() {
  close_all();
}

void SyscallWatch::close_all() noexcept {
  close_fd(channel_);
  close_fd(reports_);
  // The supervisor ends when the listener closes (with this process) or by PR_SET_PDEATHSIG.
  pid_ = -1;
}

bool SyscallWatch::running() const {
  if (pid_ <= 0) return false;
  int status = 0;
  return ::waitpid(pid_, &status, WNOHANG) == 0;
}

Status SyscallWatch::hand_over(int listener, WatchPolicy const& policy) {
  std::string const text = to_text(policy);
  if (text.size() > kMaxPolicyBytes) {
    ::close(listener);
    return make_error(ErrorCode::internal_error, "the watch policy is larger than 1 MiB");
  }
  std::string payload = text;
  DescriptorMessage sent(payload.data(), payload.size());
  msghdr& message = sent.message;
  cmsghdr* header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(header), &listener, sizeof listener);
  ssize_t n = 0;
  do {
    n = ::sendmsg(channel_, &message, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  int const error = errno;
  ::close(listener);  // the worker keeps no way to answer its own calls
  close_fd(channel_);
  if (n != static_cast<ssize_t>(text.size())) {
    return make_error(ErrorCode::io_error,
                      std::string("could not reach the supervisor: ") + errno_text(error));
  }
  return Ok{};
}

std::vector<std::string> SyscallWatch::take() {
  std::vector<std::string> lines;
  if (reports_ < 0) return lines;
  std::array<char, 4096> buffer{};
  for (;;) {
    ssize_t const n = ::read(reports_, buffer.data(), buffer.size());
    if (n <= 0) break;
    partial_.append(buffer.data(), static_cast<std::size_t>(n));
  }
  std::size_t start = 0;
  for (std::size_t end; (end = partial_.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(partial_.substr(start, end - start));
  }
  partial_.erase(0, start);
  return lines;
}

}  // namespace kopt::worker
