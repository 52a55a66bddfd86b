#include "worker/gpu/sandbox.hpp"

#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "kopt/text.hpp"

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

// Once confined, the worker may remove what is in its scratch folder but not the folder itself (that
// needs write access to its parent). A child started before confinement waits for the worker to end,
// however it ends (shutdown, watchdog exit, crash, SIGKILL from kopt), then removes the folder.
void start_scratch_remover(std::filesystem::path const& scratch) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return;
  pid_t const pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  if (pid == 0) {
    // Hold none of kopt's pipes open: kopt reads the worker's stdout and stderr until they close.
    int const null_fd = ::open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; ++fd) ::dup2(null_fd, fd);
    long const max_fd = ::sysconf(_SC_OPEN_MAX);
    for (int fd = 3; fd < (max_fd > 0 ? max_fd : 1024); ++fd) {
      if (fd != fds[0]) ::close(fd);
    }
    char buffer[64];
    for (;;) {  // data is ignored: only the end of the worker counts
      ssize_t const n = ::read(fds[0], buffer, sizeof buffer);
      if (n == 0 || (n < 0 && errno != EINTR)) break;
    }
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
    ::_exit(0);
  }
  ::close(fds[0]);  // the write end stays open for the worker's life; its end is the signal
}

}  // namespace

bool enter_network_namespace(std::string& note) {
  if (::unshare(CLONE_NEWNET) != 0) {
    int const first_errno = errno;
    uid_t const uid = ::getuid();
    gid_t const gid = ::getgid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
      note = std::string("no network namespace (") + errno_text(first_errno) + ", " + errno_text(errno) + ")";
      return false;
    }
    write_file("/proc/self/setgroups", "deny");
    write_file("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1");
    write_file("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1");
  }
  if (!loopback_up()) note = "loopback could not be brought up in the network namespace";
  return true;
}

namespace {

std::string join(std::vector<std::string> const& parts) {
  std::string s;
  for (auto const& part : parts) s += (s.empty() ? "" : ", ") + part;
  return s;
}

}  // namespace

std::vector<std::string> Sandbox::missing() const {
  std::vector<std::string> out = missing_;
  if (confinement_) {
    auto const more = confinement_->missing();
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

std::string Sandbox::isolation() const {
  std::vector<std::string> active;
  if (network_isolated_) active.emplace_back("netns");
  if (no_new_privs_) active.emplace_back("no_new_privs");
  if (rlimits_) active.emplace_back("rlimits");
  if (!scratch_.empty()) active.emplace_back("scratch dir");
  if (confinement_) {
    auto const confined = confinement_->active();
    active.insert(active.end(), confined.begin(), confined.end());
  }
  std::string s = active.empty() ? "none" : join(active);
  if (auto const absent = missing(); !absent.empty()) s += "; missing: " + join(absent);
  if (!notes_.empty()) s += " (" + notes_ + ")";
  return s;
}

Sandbox Sandbox::enter(SandboxOptions const& options) {
  Sandbox sandbox;
  // Die with the parent: a worker must never outlive kopt.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (!options.enable) {
    sandbox.missing_.emplace_back("every measure (--no-sandbox)");
    return sandbox;
  }
  // Network: a fresh network namespace has no route anywhere.
  if (options.network_namespace) {
    std::string note;
    sandbox.network_isolated_ = enter_network_namespace(note);
    if (!sandbox.network_isolated_) {
      sandbox.missing_.push_back("netns: " + note);
    } else if (!note.empty()) {
      append_note(sandbox.notes_, note);
    }
  } else {
    char const* entered = std::getenv("KOPT_WORKER_NETNS");  // set by a --netns-exec parent
    sandbox.network_isolated_ = entered != nullptr && std::string(entered) == "1";
    if (!sandbox.network_isolated_) sandbox.missing_.emplace_back("netns: --no-netns without --netns-exec");
  }
  sandbox.no_new_privs_ = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
  if (!sandbox.no_new_privs_) sandbox.missing_.push_back(std::string("no_new_privs: ") + errno_text(errno));

  // Resource limits that do not interfere with CUDA (which reserves huge virtual ranges, so no
  // RLIMIT_AS): no core dumps, bounded file sizes and descriptors.
  rlimit core{0, 0};
  rlimit fsize{rlim_t{4} << 30, rlim_t{4} << 30};
  rlimit nofile{1024, 1024};
  bool ok = ::setrlimit(RLIMIT_CORE, &core) == 0;
  ok = ::setrlimit(RLIMIT_FSIZE, &fsize) == 0 && ok;
  ok = ::setrlimit(RLIMIT_NOFILE, &nofile) == 0 && ok;
  sandbox.rlimits_ = ok;
  if (!ok) sandbox.missing_.emplace_back("rlimits: some could not be set");

  // A private scratch directory as the working directory.
  char const* tmp = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmp != nullptr ? tmp : "/tmp") + "/kopt-worker-XXXXXX";
  if (char* dir = ::mkdtemp(tmpl.data()); dir != nullptr && ::chdir(dir) == 0) {
    sandbox.scratch_ = dir;
    // Before the worker starts a thread (the scratch remover is the first).
    ::setenv("TMPDIR", dir, 1);  // NOLINT(concurrency-mt-unsafe)
    ::setenv("HOME", dir, 1);    // NOLINT(concurrency-mt-unsafe)
    start_scratch_remover(sandbox.scratch_);
  } else {
    sandbox.missing_.emplace_back("scratch dir: could not be created under " +
                                  std::string(tmp != nullptr ? tmp : "/tmp"));
  }

  // File-system confinement and the system-call filter: prepared now, applied before the first request.
  ConfinementOptions confine;
  confine.landlock = options.confine;
  confine.seccomp = options.confine;
  confine.watch = options.watch;
  confine.scratch = sandbox.scratch_;
  confine.read = options.read;
  confine.deny = options.deny;
  confine.system = default_system_paths();
  confine.devices = default_device_paths();
  confine.tool_sockets = !options.network_namespace;
  if (confine.tool_sockets) {
    // Under compute-sanitizer (kopt eval --sanitize) a confined worker hangs on its first sanitized
    // launch (measured on the H200, 2026-12-02): the sanitizer's injected code needs what the
    // confinement refuses. A sanitizer run is a diagnosis of one candidate, inside the network
    // namespace still; --require-isolation refuses it. docs/security.md.
    confine.landlock = false;
    confine.seccomp = false;
    confine.watch = false;
    confine.off_reason = "off under compute-sanitizer (--sanitize), which does not run confined";
  }
  sandbox.confinement_.emplace(Confinement::prepare(confine));
  return sandbox;
}

void Sandbox::confine(std::vector<std::filesystem::path> const& read) {
  // The device files again: CUDA's initialisation may have made some (nvidia-uvm) since start-up.
  if (confinement_) confinement_->apply(read, default_device_paths());
}

void Sandbox::leave() const {
  if (scratch_.empty()) return;
  std::error_code ec;
  std::filesystem::current_path("/", ec);
  std::filesystem::remove_all(scratch_, ec);  // once confined: its contents (the remover takes the rest)
}

}  // namespace kopt::worker
