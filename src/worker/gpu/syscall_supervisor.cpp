#include "worker/gpu/syscall_supervisor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>

#if KOPT_HAVE_SECCOMP
#include <seccomp.h>

#include "kopt/text.hpp"
#endif

namespace kopt::worker {

#if KOPT_HAVE_SECCOMP

namespace {

// Where a file-system call names its path: the descriptor argument its relative path starts from
// (-1: the working folder), the path argument, and what the call does with it.
struct PathArgument {
  int dirfd = -1;
  int path = 0;
  PathUse use = PathUse::existing;
};

enum class CallKind {
  refused,     // any notified call not listed below: answered EPERM
  open,        // open(path, flags)
  openat,      // openat(dirfd, path, flags)
  openat2,     // openat2(dirfd, path, struct open_how*)
  paths,       // changes what its path arguments name
  descriptor,  // changes the file its descriptor argument (0) names
};

struct CallShape {
  CallKind kind = CallKind::refused;
  std::vector<PathArgument> paths;
};

std::map<std::string, CallShape> const& call_shapes() {
  using K = CallKind;
  static std::map<std::string, CallShape> const shapes = {
      {"open", {K::open, {}}},
      {"openat", {K::openat, {}}},
      {"openat2", {K::openat2, {}}},
      {"creat", {K::paths, {{-1, 0, PathUse::create}}}},
      {"mkdir", {K::paths, {{-1, 0, PathUse::exclusive}}}},
      {"mkdirat", {K::paths, {{0, 1, PathUse::exclusive}}}},
      {"mknod", {K::paths, {{-1, 0, PathUse::exclusive}}}},
      {"mknodat", {K::paths, {{0, 1, PathUse::exclusive}}}},
      {"rmdir", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"unlink", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"unlinkat", {K::paths, {{0, 1, PathUse::existing}}}},
      {"rename", {K::paths, {{-1, 0, PathUse::existing}, {-1, 1, PathUse::create}}}},
      {"renameat", {K::paths, {{0, 1, PathUse::existing}, {2, 3, PathUse::create}}}},
      {"renameat2", {K::paths, {{0, 1, PathUse::existing}, {2, 3, PathUse::create}}}},
      {"link", {K::paths, {{-1, 0, PathUse::existing}, {-1, 1, PathUse::exclusive}}}},
      {"linkat", {K::paths, {{0, 1, PathUse::existing}, {2, 3, PathUse::exclusive}}}},
      {"symlink", {K::paths, {{-1, 1, PathUse::exclusive}}}},
      {"symlinkat", {K::paths, {{1, 2, PathUse::exclusive}}}},
      {"truncate", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"chmod", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"fchmodat", {K::paths, {{0, 1, PathUse::existing}}}},
      {"fchmodat2", {K::paths, {{0, 1, PathUse::existing}}}},
      {"chown", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"lchown", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"fchownat", {K::paths, {{0, 1, PathUse::existing}}}},
      {"utime", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"utimes", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"futimesat", {K::paths, {{0, 1, PathUse::existing}}}},
      {"utimensat", {K::paths, {{0, 1, PathUse::existing}}}},
      {"setxattr", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"lsetxattr", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"removexattr", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"lremovexattr", {K::paths, {{-1, 0, PathUse::existing}}}},
      {"fchmod", {K::descriptor, {}}},
      {"fchown", {K::descriptor, {}}},
      {"fsetxattr", {K::descriptor, {}}},
      {"fremovexattr", {K::descriptor, {}}},
  };
  return shapes;
}

std::string call_name(int nr) {
  char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
  if (name == nullptr) return "system call " + std::to_string(nr);
  std::string out(name);
  std::free(name);  // NOLINT(cppcoreguidelines-no-malloc): libseccomp allocates it
  return out;
}

std::string family_name(std::uint64_t family) {
  switch (family) {
    case AF_UNIX: return "AF_UNIX";
    case AF_INET: return "AF_INET";
    case AF_INET6: return "AF_INET6";
    case AF_NETLINK: return "AF_NETLINK";
    case AF_PACKET: return "AF_PACKET";
    default: return "family " + std::to_string(family);
  }
}

// What the notified call reads as: "ptrace", "socket (AF_INET)", "clone (a new process)".
std::string describe_refused(std::string const& name, seccomp_data const& data) {
  if (name == "socket") return "socket (" + family_name(data.args[0] & 0xffffffffULL) + ")";
  if (name == "clone") {
    return (data.args[0] & CLONE_THREAD) == 0 ? "clone (a new process)" : "clone (new namespaces)";
  }
  return name;
}

class Supervisor {
 public:
  Supervisor(SupervisorChannels const& channels, WatchPolicy const& policy)
      : channels_(channels), policy_(resolved(policy)) {}

  // The answer to one notification: nullopt lets the kernel carry the call out; an errno refuses it.
  std::optional<int> judge(seccomp_notif const& request) {
    subject_.clear();
    std::string const name = call_name(request.data.nr);
    subject_ = name;
    auto const shape = call_shapes().find(name);
    if (shape == call_shapes().end()) {
      report("refused system call " + describe_refused(name, request.data));
      return EPERM;
    }
    int const tid = static_cast<int>(request.pid);
    auto const& args = request.data.args;
    switch (shape->second.kind) {
      case CallKind::open: return judge_open(name, tid, -1, args[0], args[1]);
      case CallKind::openat: return judge_open(name, tid, dirfd(args[0]), args[1], args[2]);
      case CallKind::openat2: {
        std::uint64_t flags = 0;
        if (!read_memory(args[2], &flags, sizeof flags)) return std::nullopt;
        return judge_open(name, tid, dirfd(args[0]), args[1], flags);
      }
      case CallKind::descriptor: {
        auto const path = descriptor_path(tid, static_cast<int>(args[0]));
        if (!path) return std::nullopt;
        return verdict(name, judge_path(*path, PathIntent::write, PathUse::existing));
      }
      case CallKind::paths: break;
      case CallKind::refused: return EPERM;
    }
    for (PathArgument const& arg : shape->second.paths) {
      int const fd = arg.dirfd < 0 ? AT_FDCWD : dirfd(args[static_cast<std::size_t>(arg.dirfd)]);
      std::optional<std::filesystem::path> path;
      if (args[static_cast<std::size_t>(arg.path)] == 0) {  // utimensat(fd, NULL, ...): the descriptor
        path = descriptor_path(tid, fd);
      } else {
        path = named_path(tid, fd, args[static_cast<std::size_t>(arg.path)]);
      }
      if (!path) continue;
      if (auto answer = verdict(name, judge_path(*path, PathIntent::write, arg.use))) return answer;
    }
    return std::nullopt;
  }

  // What the last judge() looked at: the call and the path it resolved ("openat /dev/nvidiactl").
  std::string const& subject() const noexcept { return subject_; }

  void report(std::string const& line) {
    std::string const text = line + "\n";
    (void)!::write(channels_.report, text.data(), text.size());  // full pipe: the verdict stands anyway
  }

 private:
  static int dirfd(std::uint64_t arg) { return static_cast<int>(static_cast<std::int32_t>(arg)); }

  std::optional<int> judge_open(std::string const& name, int tid, int fd, std::uint64_t path_arg,
                                std::uint64_t flags) {
    if ((flags & O_PATH) != 0) return std::nullopt;  // no access: Landlock does not check it either
    bool const writes = (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)) != 0;
    // O_TMPFILE names the folder the unnamed file is made in (which exists).
    PathUse use = PathUse::existing;
    if ((flags & O_CREAT) != 0 && (flags & O_TMPFILE) != O_TMPFILE)
      use = (flags & O_EXCL) != 0 ? PathUse::exclusive : PathUse::create;
    auto const path = named_path(tid, fd, path_arg);
    if (!path) return std::nullopt;
    return verdict(name, judge_path(*path, writes ? PathIntent::write : PathIntent::read, use));
  }

  std::optional<int> verdict(std::string const& name, PathJudgement const& judgement) {
    if (!judgement.violation) return std::nullopt;
    report(judgement.reason + " (" + name + ")");
    return EACCES;
  }

  PathJudgement judge_path(std::filesystem::path const& path, PathIntent intent, PathUse use) const {
    return kopt::worker::judge(policy_, path, intent, use);
  }

  bool read_memory(std::uint64_t address, void* out, std::size_t size) const {
    auto const n = ::pread(channels_.memory, out, size, static_cast<off_t>(address));
    return n == static_cast<ssize_t>(size);
  }

  static std::optional<std::filesystem::path> link_target(std::string const& link) {
    std::array<char, 4096> buffer{};
    ssize_t const n = ::readlink(link.c_str(), buffer.data(), buffer.size());
    if (n <= 0 || static_cast<std::size_t>(n) >= buffer.size()) return std::nullopt;
    return std::filesystem::path(std::string(buffer.data(), static_cast<std::size_t>(n)));
  }

  std::string proc_thread(int tid) const {
    return "/proc/" + std::to_string(policy_.process_id) + "/task/" + std::to_string(tid);
  }

  std::optional<std::filesystem::path> descriptor_path(int tid, int fd) {
    auto target = link_target(proc_thread(tid) + "/fd/" + std::to_string(fd));
    // Pipes, sockets and anonymous files ("pipe:[12]") are not in the file hierarchy.
    if (!target || target->is_relative()) return std::nullopt;
    subject_ += " " + target->string();
    return target;
  }

  // The path a call names: read from the worker's memory, resolved against its working folder or the
  // folder of `fd`. nullopt when it cannot be read (the kernel then answers: Landlock still checks).
  std::optional<std::filesystem::path> named_path(int tid, int fd, std::uint64_t address) {
    std::array<char, 4096> buffer{};
    auto const n = ::pread(channels_.memory, buffer.data(), buffer.size(), static_cast<off_t>(address));
    if (n <= 0) return std::nullopt;
    auto const* end = static_cast<char const*>(std::memchr(buffer.data(), '\0', static_cast<std::size_t>(n)));
    if (end == nullptr) return std::nullopt;
    std::string const raw(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
    std::optional<std::filesystem::path> base;
    if (!raw.empty() && raw.front() == '/') {
      base = std::filesystem::path("/");
    } else if (fd == AT_FDCWD) {
      base = link_target(proc_thread(tid) + "/cwd");
    } else {
      base = descriptor_path(tid, fd);
    }
    if (!base) return std::nullopt;
    auto resolved_path = resolve_path(raw, *base, policy_.process_id, tid);
    subject_ += " " + resolved_path.string();
    return resolved_path;
  }

  SupervisorChannels channels_;
  std::string subject_;
  WatchPolicy policy_;
};

}  // namespace

void run_supervisor(SupervisorChannels const& channels, WatchPolicy const& policy) {
  seccomp_notif* request = nullptr;
  seccomp_notif_resp* response = nullptr;
  if (seccomp_notify_alloc(&request, &response) != 0) return;
  Supervisor supervisor(channels, policy);
  // KOPT_WORKER_WATCH_TRACE=FILE: one line per notified call (when, thread, call and path, answer, how
  // long judging took), to find what a worker does after it confined itself (docs/security.md).
  std::FILE* trace = nullptr;
  if (char const* path = std::getenv("KOPT_WORKER_WATCH_TRACE"); path != nullptr && *path != '\0') {
    trace = std::fopen(path, "a");
  }
  auto const started = std::chrono::steady_clock::now();
  // A failed receive is usually a caller that was killed between poll and receive (ENOENT): keep
  // serving. The loop ends when the listener hangs up (no thread of the worker is left) or keeps failing.
  int failures = 0;
  while (failures < 1000) {
    pollfd poll_fd{channels.listener, POLLIN, 0};
    if (::poll(&poll_fd, 1, -1) < 0) {
      ++failures;
      continue;
    }
    if ((poll_fd.revents & POLLIN) == 0) break;  // POLLHUP, POLLERR, POLLNVAL
    std::memset(request, 0, sizeof *request);    // the kernel refuses a request that is not zeroed
    if (seccomp_notify_receive(channels.listener, request) != 0) {
      ++failures;
      continue;
    }
    failures = 0;
    auto const received = std::chrono::steady_clock::now();
    std::optional<int> const answer = supervisor.judge(*request);
    if (trace != nullptr) {
      auto const us = [](auto d) { return std::chrono::duration<double, std::micro>(d).count(); };
      std::fprintf(trace, "%.0f %u %s %s %.1f\n", us(received - started), request->pid,
                   supervisor.subject().c_str(), answer ? errno_text(*answer).c_str() : "continue",
                   us(std::chrono::steady_clock::now() - received));
      std::fflush(trace);
    }
    std::memset(response, 0, sizeof *response);
    response->id = request->id;
    if (answer) {
      response->error = -*answer;
    } else {
      response->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    }
    (void)seccomp_notify_respond(channels.listener, response);  // ENOENT: the caller was killed meanwhile
  }
  if (trace != nullptr) std::fclose(trace);
  seccomp_notify_free(request, response);
}

#else

void run_supervisor(SupervisorChannels const& /*channels*/, WatchPolicy const& /*policy*/) {}

#endif

}  // namespace kopt::worker
