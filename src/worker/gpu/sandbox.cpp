#include "worker/gpu/sandbox.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace kopt::worker {
namespace {

bool write_file(char const* path, std::string const& text) {
  std::ofstream out(path);
  out << text;
  return static_cast<bool>(out);
}

void append_note(std::string& notes, std::string const& note) {
  if (!notes.empty()) notes += "; ";
  notes += note;
}

bool loopback_up() {
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  ifreq request{};
  std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
  bool ok = ::ioctl(fd, SIOCGIFFLAGS, &request) == 0;
  if (ok) {
    request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP);
    ok = ::ioctl(fd, SIOCSIFFLAGS, &request) == 0;
  }
  ::close(fd);
  return ok;
}

}  // namespace

bool enter_network_namespace(std::string& note) {
  if (::unshare(CLONE_NEWNET) != 0) {
    int const first_errno = errno;
    uid_t const uid = ::getuid();
    gid_t const gid = ::getgid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
      note = std::string("no network namespace (") + std::strerror(first_errno) + ", " +
             std::strerror(errno) + ")";
      return false;
    }
    write_file("/proc/self/setgroups", "deny");
    write_file("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1");
    write_file("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1");
  }
  if (!loopback_up()) note = "loopback could not be brought up in the network namespace";
  return true;
}

std::string SandboxReport::describe() const {
  std::string s;
  auto add = [&s](std::string const& part) {
    if (!s.empty()) s += ", ";
    s += part;
  };
  if (network_isolated) add("netns");
  if (no_new_privs) add("no_new_privs");
  if (rlimits) add("rlimits");
  if (!scratch.empty()) add("scratch dir");
  if (s.empty()) s = "none";
  return s;
}

SandboxReport enter_sandbox(bool enable, bool network_namespace) {
  SandboxReport report;
  // Die with the parent: a worker must never outlive kopt.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (!enable) {
    report.notes = "sandbox disabled (--no-sandbox)";
    return report;
  }
  // Network: a fresh network namespace has no route anywhere.
  if (network_namespace) {
    std::string note;
    report.network_isolated = enter_network_namespace(note);
    if (!note.empty()) append_note(report.notes, note);
  } else {
    char const* entered = std::getenv("KOPT_WORKER_NETNS");  // set by a --netns-exec parent
    report.network_isolated = entered != nullptr && std::string(entered) == "1";
    if (!report.network_isolated) append_note(report.notes, "no network namespace (--no-netns)");
  }
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) report.no_new_privs = true;

  // Resource limits that do not interfere with CUDA (which reserves huge virtual ranges, so no
  // RLIMIT_AS): no core dumps, bounded file sizes and descriptors.
  rlimit core{0, 0};
  rlimit fsize{rlim_t{4} << 30, rlim_t{4} << 30};
  rlimit nofile{1024, 1024};
  bool ok = ::setrlimit(RLIMIT_CORE, &core) == 0;
  ok = ::setrlimit(RLIMIT_FSIZE, &fsize) == 0 && ok;
  ok = ::setrlimit(RLIMIT_NOFILE, &nofile) == 0 && ok;
  report.rlimits = ok;
  if (!ok) append_note(report.notes, "some rlimits could not be set");

  // A private scratch directory as the working directory.
  char const* tmp = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmp != nullptr ? tmp : "/tmp") + "/kopt-worker-XXXXXX";
  if (char* dir = ::mkdtemp(tmpl.data()); dir != nullptr && ::chdir(dir) == 0) {
    report.scratch = dir;
    ::setenv("TMPDIR", dir, 1);
    ::setenv("HOME", dir, 1);
  } else {
    append_note(report.notes, "no scratch directory");
  }
  return report;
}

void leave_sandbox(SandboxReport const& report) {
  if (report.scratch.empty()) return;
  std::error_code ec;
  std::filesystem::current_path("/", ec);
  std::filesystem::remove_all(report.scratch, ec);
}

}  // namespace kopt::worker
