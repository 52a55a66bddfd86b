#include "worker/gpu/landlock.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstring>
#include <set>
#include <string_view>
#include <thread>
#include <utility>

#include "kopt/text.hpp"

namespace kopt::worker {
namespace {

// The kernel's structures and constants, spelled out here: Debian 12's linux/landlock.h stops at ABI 2,
// and the values are a stable kernel ABI.
struct RulesetAttr {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;  // ABI >= 4
  std::uint64_t scoped = 0;              // ABI >= 6
};
struct __attribute__((packed)) PathBeneathAttr {
  std::uint64_t allowed_access = 0;
  std::int32_t parent_fd = -1;
};
constexpr unsigned kCreateRulesetVersion = 1U << 0;
constexpr int kRulePathBeneath = 1;

constexpr std::uint64_t kExecute = 1ULL << 0;
constexpr std::uint64_t kWriteFile = 1ULL << 1;
constexpr std::uint64_t kReadFile = 1ULL << 2;
constexpr std::uint64_t kReadDir = 1ULL << 3;
constexpr std::uint64_t kRemoveDir = 1ULL << 4;
constexpr std::uint64_t kRemoveFile = 1ULL << 5;
constexpr std::uint64_t kMakeChar = 1ULL << 6;
constexpr std::uint64_t kMakeDir = 1ULL << 7;
constexpr std::uint64_t kMakeReg = 1ULL << 8;
constexpr std::uint64_t kMakeSock = 1ULL << 9;
constexpr std::uint64_t kMakeFifo = 1ULL << 10;
constexpr std::uint64_t kMakeBlock = 1ULL << 11;
constexpr std::uint64_t kMakeSym = 1ULL << 12;
constexpr std::uint64_t kRefer = 1ULL << 13;     // ABI >= 2
constexpr std::uint64_t kTruncate = 1ULL << 14;  // ABI >= 3
constexpr std::uint64_t kIoctlDev = 1ULL << 15;  // ABI >= 5
constexpr std::uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;

constexpr std::uint64_t kNetBindTcp = 1ULL << 0;         // ABI >= 4
constexpr std::uint64_t kNetConnectTcp = 1ULL << 1;      // ABI >= 4
constexpr std::uint64_t kScopeAbstractUnix = 1ULL << 0;  // ABI >= 6
constexpr std::uint64_t kScopeSignal = 1ULL << 1;        // ABI >= 6

std::uint64_t handled_fs(int abi) {
  std::uint64_t rights = kExecute | kWriteFile | kReadFile | kReadDir | kRemoveDir | kRemoveFile | kMakeChar |
                         kMakeDir | kMakeReg | kMakeSock | kMakeFifo | kMakeBlock | kMakeSym;
  if (abi >= 2) rights |= kRefer;
  if (abi >= 3) rights |= kTruncate;
  if (abi >= 5) rights |= kIoctlDev;
  return rights;
}

std::uint64_t rights_for(PathAccess access) {
  switch (access) {
    case PathAccess::read: return kReadFile | kReadDir;
    case PathAccess::write:
      return kReadFile | kReadDir | kWriteFile | kRemoveDir | kRemoveFile | kMakeDir | kMakeReg | kMakeFifo |
             kMakeSym | kRefer | kTruncate;
    case PathAccess::device: return kReadFile | kReadDir | kWriteFile | kTruncate | kIoctlDev;
  }
  return 0;
}

std::string error_text(int error) {
  return kopt::errno_text(error) + " (errno " + std::to_string(error) + ")";
}

// State the signal handler reads: the ruleset (a descriptor kept open for the process's life, so that a
// thread that unblocks the signal late still restricts itself) and which threads answered.
constexpr std::size_t kMaxAnswers = 4096;
std::atomic<int> g_ruleset_fd{-1};
std::atomic<std::size_t> g_answers{0};
std::array<std::atomic<pid_t>, kMaxAnswers> g_answered{};  // tid, negated when the thread failed

extern "C" void restrict_this_thread(int /*signal*/) {
  int const saved = errno;
  ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  long const rc = ::syscall(SYS_landlock_restrict_self, g_ruleset_fd.load(), 0U);
  auto const tid = static_cast<pid_t>(::syscall(SYS_gettid));
  std::size_t const slot = g_answers.fetch_add(1);
  if (slot < kMaxAnswers) g_answered[slot].store(rc == 0 ? tid : -tid);
  errno = saved;
}

std::set<pid_t> threads_of_this_process() {
  std::set<pid_t> tids;
  DIR* dir = ::opendir("/proc/self/task");
  if (dir == nullptr) return tids;
  while (dirent* entry = ::readdir(dir)) {
    pid_t tid = 0;
    std::string_view const name(entry->d_name);
    auto const [end, error] = std::from_chars(name.data(), name.data() + name.size(), tid);
    if (error == std::errc() && end == name.data() + name.size()) tids.insert(tid);
  }
  ::closedir(dir);
  return tids;
}

std::set<pid_t> answered(bool confined) {
  std::set<pid_t> tids;
  std::size_t const n = std::min(g_answers.load(), kMaxAnswers);
  for (std::size_t i = 0; i < n; ++i) {
    pid_t const tid = g_answered[i].load();
    if (tid != 0 && (tid > 0) == confined) tids.insert(tid > 0 ? tid : -tid);
  }
  return tids;
}

}  // namespace

int landlock_abi(std::string* why) {
  long const abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  if (abi < 0) {
    int const error = errno;
    if (why != nullptr) {
      *why = error == ENOSYS       ? "the kernel has no Landlock (ENOSYS)"
             : error == EOPNOTSUPP ? "Landlock is disabled at boot (EOPNOTSUPP; add landlock to lsm=)"
                                   : "landlock_create_ruleset: " + error_text(error);
    }
    return 0;
  }
  return static_cast<int>(abi);
}

Result<LandlockRuleset> LandlockRuleset::create(LandlockOptions const& options) {
  std::string why;
  int const abi = landlock_abi(&why);
  if (abi <= 0) return make_error(ErrorCode::not_found, why);
  RulesetAttr attr;
  attr.handled_access_fs = handled_fs(abi);
  if (abi >= 4 && options.deny_tcp) attr.handled_access_net = kNetBindTcp | kNetConnectTcp;
  if (abi >= 6) {
    if (options.scope_abstract_unix) attr.scoped |= kScopeAbstractUnix;
    if (options.scope_signals) attr.scoped |= kScopeSignal;
  }
  long const fd = ::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0U);
  if (fd < 0) return make_error(ErrorCode::io_error, "landlock_create_ruleset: " + error_text(errno));
  return LandlockRuleset(static_cast<int>(fd), abi);
}

LandlockRuleset::LandlockRuleset(LandlockRuleset&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), abi_(other.abi_) {}

LandlockRuleset& LandlockRuleset::operator=(LandlockRuleset&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    abi_ = other.abi_;
  }
  return *this;
}

LandlockRuleset::~LandlockRuleset() {
  if (fd_ >= 0) ::close(fd_);
}

Status LandlockRuleset::allow(std::filesystem::path const& path, PathAccess access) {
  int const target = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (target < 0) {
    return make_error(ErrorCode::not_found, "landlock rule for " + path.string() + ": " + error_text(errno));
  }
  struct stat info {};
  std::uint64_t rights = rights_for(access) & handled_fs(abi_);
  if (::fstat(target, &info) == 0 && !S_ISDIR(info.st_mode)) rights &= kFileRights;
  PathBeneathAttr rule;
  rule.allowed_access = rights;
  rule.parent_fd = target;
  long const rc = ::syscall(SYS_landlock_add_rule, fd_, kRulePathBeneath, &rule, 0U);
  int const error = errno;
  ::close(target);
  if (rc != 0) {
    return make_error(ErrorCode::io_error,
                      "landlock_add_rule for " + path.string() + ": " + error_text(error));
  }
  return Ok{};
}

Result<ThreadsConfined> LandlockRuleset::restrict_all_threads() {
  if (fd_ < 0) return make_error(ErrorCode::internal_error, "the Landlock ruleset was moved from");
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return make_error(ErrorCode::io_error, "PR_SET_NO_NEW_PRIVS: " + error_text(errno));
  }
  int const kept = ::fcntl(fd_, F_DUPFD_CLOEXEC, 3);
  if (kept < 0) return make_error(ErrorCode::io_error, "dup of the Landlock ruleset: " + error_text(errno));
  int const previous = g_ruleset_fd.exchange(kept);
  if (previous >= 0) ::close(previous);

  int const signal = SIGRTMIN + 6;
  struct sigaction action {};
  action.sa_handler = restrict_this_thread;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (::sigaction(signal, &action, nullptr) != 0) {
    return make_error(ErrorCode::io_error, "sigaction: " + error_text(errno));
  }
  // Other threads first, while this one is not yet in a domain (its signals reach them all); then again
  // for threads started in the meantime, until no new thread shows up or half a second has passed.
  auto const self = static_cast<pid_t>(::syscall(SYS_gettid));
  std::set<pid_t> asked;
  auto const deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  for (;;) {
    bool new_thread = false;
    for (pid_t tid : threads_of_this_process()) {
      if (tid == self || asked.contains(tid)) continue;
      if (::syscall(SYS_tgkill, ::getpid(), tid, signal) == 0) {
        asked.insert(tid);
        new_thread = true;
      }
    }
    while (answered(true).size() + answered(false).size() < asked.size() &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!new_thread || std::chrono::steady_clock::now() >= deadline) break;
  }
  // Counted before this thread restricts itself: /proc may not be readable afterwards.
  ThreadsConfined result;
  std::set<pid_t> const confined = answered(true);
  for (pid_t tid : threads_of_this_process()) {
    if (tid == self || confined.contains(tid)) {
      ++result.confined;
    } else {
      ++result.unconfined;
    }
  }
  if (::syscall(SYS_landlock_restrict_self, fd_, 0U) != 0) {
    return make_error(ErrorCode::io_error, "landlock_restrict_self: " + error_text(errno));
  }
  return result;
}

}  // namespace kopt::worker
