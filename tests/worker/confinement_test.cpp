// The worker's confinement (src/worker/gpu/confinement.*, landlock.*, syscall_filter.*, sandbox.*),
// without a GPU: a forked child confines itself as kopt-worker does before its first request, then
// acts as a cheating or careless launcher would (writes outside its scratch folder, reads a secret,
// starts a program, attaches to its parent) and reports each call's errno to the parent. Each refusal
// must be an error return (EACCES from Landlock, EPERM from the filter), and the child must survive it.
#include "worker/gpu/confinement.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/bpf.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "kopt/toolchain.hpp"
#include "kopt/worker/confinement_paths.hpp"
#include "kopt/worker/protocol.hpp"
#include "support/temp_dir.hpp"
#include "worker/gpu/landlock.hpp"
#include "worker/gpu/sandbox.hpp"

extern char** environ;

namespace kopt::worker {
namespace confinement_test {

using kopt::test::TempDir;

// What a child reports: one "name errno" line per attempted call (0: the call succeeded).
class Reporter {
 public:
  explicit Reporter(int fd) : fd_(fd) {}
  // Records `ok ? 0 : errno` under `name`.
  void call(std::string const& name, bool ok) { line(name, ok ? 0 : errno); }
  void line(std::string const& name, int value) {
    std::string const text = name + " " + std::to_string(value) + "\n";
    (void)!::write(fd_, text.data(), text.size());
  }

 private:
  int fd_;
};

struct ChildReport {
  int exit_code = -1;
  std::map<std::string, int> values;
  std::string text;
};

// Runs `body` in a forked child; the child exits 0 after it (it survived every refusal).
ChildReport in_child(std::function<void(Reporter&)> const& body) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  pid_t const pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    Reporter reporter(fds[1]);
    body(reporter);
    reporter.line("survived", 1);
    ::_exit(0);
  }
  ::close(fds[1]);
  ChildReport report;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) report.text.append(buffer, n);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  report.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::size_t start = 0;
  while (start < report.text.size()) {
    std::size_t const end = report.text.find('\n', start);
    std::string const line = report.text.substr(start, end - start);
    std::size_t const space = line.rfind(' ');
    if (space != std::string::npos)
      report.values[line.substr(0, space)] = std::atoi(line.c_str() + space + 1);
    start = end == std::string::npos ? report.text.size() : end + 1;
  }
  return report;
}

void write_text(std::filesystem::path const& path, std::string const& text) {
  std::ofstream(path) << text;
}

bool create_file(std::filesystem::path const& path) {
  int const fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

bool open_for(std::filesystem::path const& path, int flags) {
  int const fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

// A worker's world in miniature: its scratch folder, a task folder and a compile cache it may read, a
// store and a home folder with a secret that it may neither read nor write.
class ConfinementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    abi_ = landlock_abi(&why);
    if (abi_ == 0) GTEST_SKIP() << "no Landlock on this machine: " << why;
    for (char const* name : {"scratch", "task", "cache", "store", "home"}) {
      std::filesystem::create_directories(root_.path() / name);
    }
    write_text(task() / "task.toml", "name = \"t\"\n");
    write_text(cache() / "reference.so", "artifact");
    write_text(root_.path() / "store" / "kopt.db", "store");
    write_text(home() / "secret.txt", "api key");
  }

  std::filesystem::path scratch() const { return root_.path() / "scratch"; }
  std::filesystem::path task() const { return root_.path() / "task"; }
  std::filesystem::path cache() const { return root_.path() / "cache"; }
  std::filesystem::path store() const { return root_.path() / "store"; }
  std::filesystem::path home() const { return root_.path() / "home"; }

  ConfinementOptions options(bool tool_sockets = false) const {
    ConfinementOptions o;
    o.scratch = scratch();
    o.system = default_system_paths();
    o.devices = default_device_paths();
    o.tool_sockets = tool_sockets;
    return o;
  }

  // Prepares with the system's paths, applies with the task folder and the cache (what the first
  // request names), then runs `attempts`.
  ChildReport confined_child(std::function<void(Reporter&)> const& attempts, bool tool_sockets = false) {
    std::vector<std::filesystem::path> const request_folders = {task(), cache()};
    return in_child([&](Reporter& r) {
      Confinement confinement = Confinement::prepare(options(tool_sockets));  // /proc/<this child>
      confinement.apply(request_folders);
      r.line("missing", static_cast<int>(confinement.missing().size()));
      attempts(r);
    });
  }

  int abi_ = 0;
  TempDir root_;
};

TEST_F(ConfinementTest, WritesOnlyItsScratchFolder) {
  std::string const outside_tmp = "/tmp/kopt-confinement-probe-" + std::to_string(::getpid());
  char const* real_home = std::getenv("HOME");
  std::filesystem::path const home_probe =
      std::filesystem::path(real_home != nullptr ? real_home : "/root") / ".kopt-confinement-probe";
  auto const report = confined_child([&](Reporter& r) {
    r.call("scratch", create_file(scratch() / "out.bin"));
    r.call("dev_null", open_for("/dev/null", O_WRONLY));
    r.call("home", create_file(home() / "planted"));
    r.call("real_home", create_file(home_probe));
    r.call("tmp", create_file(outside_tmp));
    r.call("cache_new", create_file(cache() / "planted.so"));
    r.call("cache_overwrite", open_for(cache() / "reference.so", O_WRONLY));
    r.call("cache_remove", ::unlink((cache() / "reference.so").c_str()) == 0);
    r.call("cache_rename",
           ::rename((cache() / "reference.so").c_str(), (scratch() / "stolen.so").c_str()) == 0);
    r.call("store", open_for(store() / "kopt.db", O_RDWR));
    r.call("task", create_file(task() / "task.toml"));
    r.call("task_mkdir", ::mkdir((task() / "sub").c_str(), 0700) == 0);
    r.call("mknod", ::mknod((scratch() / "disk").c_str(), S_IFBLK | 0600, makedev(8, 0)) == 0);
  });
  std::error_code ec;
  std::filesystem::remove(outside_tmp, ec);
  std::filesystem::remove(home_probe, ec);
  ASSERT_EQ(report.exit_code, 0) << report.text;
  EXPECT_EQ(report.values.at("missing"), 0) << report.text;
  EXPECT_EQ(report.values.at("scratch"), 0) << report.text;
  EXPECT_EQ(report.values.at("dev_null"), 0) << report.text;
  for (char const* refused : {"home", "real_home", "tmp", "cache_new", "cache_overwrite", "cache_remove",
                              "cache_rename", "store", "task", "task_mkdir", "mknod"}) {
    EXPECT_EQ(report.values.at(refused), EACCES) << refused << "\n" << report.text;
  }
  EXPECT_EQ(report.values.at("survived"), 1);
  EXPECT_TRUE(std::filesystem::exists(cache() / "reference.so"));
}

TEST_F(ConfinementTest, ReadsOnlyWhatTheWorkerNeeds) {
  std::string const parent_environ = "/proc/" + std::to_string(::getpid()) + "/environ";
  auto const report = confined_child([&](Reporter& r) {
    r.call("task", open_for(task() / "task.toml", O_RDONLY));
    r.call("cache", open_for(cache() / "reference.so", O_RDONLY));
    r.call("libc", open_for("/etc/ld.so.cache", O_RDONLY));
    r.call("proc_self", open_for("/proc/self/status", O_RDONLY));
    r.call("secret", open_for(home() / "secret.txt", O_RDONLY));
    r.call("home_listing", open_for(home(), O_RDONLY | O_DIRECTORY));
    r.call("store", open_for(store() / "kopt.db", O_RDONLY));
    r.call("parent_environ", open_for(parent_environ, O_RDONLY));
  });
  ASSERT_EQ(report.exit_code, 0) << report.text;
  for (char const* allowed : {"task", "cache", "proc_self"}) {
    EXPECT_EQ(report.values.at(allowed), 0) << allowed << "\n" << report.text;
  }
  if (std::filesystem::exists("/etc/ld.so.cache")) {
    EXPECT_EQ(report.values.at("libc"), 0) << report.text;
  }
  for (char const* refused : {"secret", "home_listing", "store"}) {
    EXPECT_EQ(report.values.at(refused), EACCES) << refused << "\n" << report.text;
  }
  // kopt's environment (API keys) through /proc: other processes' folders are not in the rules.
  EXPECT_EQ(report.values.at("parent_environ"), EACCES) << report.text;
}

TEST_F(ConfinementTest, StartsNoProgram) {
  auto const report = confined_child([&](Reporter& r) {
    char arg0[] = "true";
    char* argv[] = {arg0, nullptr};
    r.call("execve", ::execve("/bin/true", argv, environ) == 0);
    pid_t child = 0;
    int const spawned = ::posix_spawn(&child, "/bin/true", nullptr, nullptr, argv, environ);
    int status = 0;
    if (spawned == 0) ::waitpid(child, &status, 0);
    // posix_spawn reports the exec's errno itself (or the child exits 127).
    r.line("posix_spawn", spawned != 0 ? spawned : (WIFEXITED(status) ? WEXITSTATUS(status) : -1));
  });
  ASSERT_EQ(report.exit_code, 0) << report.text;
  EXPECT_EQ(report.values.at("execve"), EPERM) << report.text;
  int const spawn = report.values.at("posix_spawn");
  EXPECT_TRUE(spawn == EPERM || spawn == 127) << report.text;
}

TEST_F(ConfinementTest, CannotTouchItsParent) {
  pid_t const parent = ::getpid();
  auto const report = confined_child([&](Reporter& r) {
    r.call("ptrace", ::ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) == 0);
    char byte = 0;
    iovec local{&byte, 1};
    iovec remote{&byte, 1};
    r.call("process_vm_readv", ::process_vm_readv(parent, &local, 1, &remote, 1, 0) == 1);
    r.call("kill", ::kill(parent, 0) == 0);
  });
  ASSERT_EQ(report.exit_code, 0) << report.text;
  EXPECT_EQ(report.values.at("ptrace"), EPERM) << report.text;
  EXPECT_EQ(report.values.at("process_vm_readv"), EPERM) << report.text;
  if (abi_ >= 6) {  // signal scoping
    EXPECT_EQ(report.values.at("kill"), EPERM) << report.text;
  }
}

TEST_F(ConfinementTest, RefusesSocketsMountsNamespacesModulesAndBpf) {
  auto const report = confined_child([&](Reporter& r) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    r.call("unix_socket", fd >= 0);
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    r.call("inet_socket", fd >= 0);
    fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 0);
    r.call("netlink_socket", fd >= 0);
    int pair[2];
    r.call("socketpair", ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
    r.call("mount", ::mount("none", scratch().c_str(), "tmpfs", 0, nullptr) == 0);
    r.call("unshare", ::unshare(CLONE_NEWUSER) == 0);
    r.call("init_module", ::syscall(SYS_init_module, nullptr, 0, "") == 0);
    bpf_attr attr{};
    r.call("bpf", ::syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof attr) >= 0);
    // Threads still start (clone3 is refused with ENOSYS; the C library falls back to clone).
    bool ran = false;
    std::thread([&ran] { ran = true; }).join();
    r.line("thread_ran", ran ? 1 : 0);
  });
  ASSERT_EQ(report.exit_code, 0) << report.text;
  for (char const* refused :
       {"unix_socket", "inet_socket", "netlink_socket", "mount", "unshare", "init_module", "bpf"}) {
    EXPECT_EQ(report.values.at(refused), EPERM) << refused << "\n" << report.text;
  }
  EXPECT_EQ(report.values.at("socketpair"), 0) << report.text;
  EXPECT_EQ(report.values.at("thread_ran"), 1) << report.text;
}

// The watch (syscall_watch.hpp): every refused call and file access is named, with its path, and
// nothing the worker may do is. Each attempt still fails as above (the kernel's answer is unchanged).
TEST_F(ConfinementTest, TheWatchNamesEachRefusedCallAndFileAccess) {
  std::filesystem::path const planted = home() / "planted";
  pid_t const parent = ::getpid();
  auto const watched = in_child([&](Reporter& r) {
    Confinement confinement = Confinement::prepare(options());
    confinement.apply({task(), cache()});
    r.line("missing", static_cast<int>(confinement.missing().size()));
    auto attempt = [&](std::string const& name, bool ok) {
      r.call(name, ok);
      auto const reports = confinement.take_violations();
      r.line(name + "_reports", static_cast<int>(reports.size()));
      for (auto const& text : reports) r.line("report[" + name + "]=" + text, 0);
    };
    // Allowed: none of these is reported.
    attempt("scratch_write", create_file(scratch() / "out.bin"));
    attempt("task_read", open_for(task() / "task.toml", O_RDONLY));
    attempt("dev_null", open_for("/dev/null", O_RDWR));
    attempt("proc_self", open_for("/proc/self/status", O_RDONLY));
    attempt("missing_file", open_for(home() / "no-such-file", O_RDONLY));
    // mkdir of a folder that exists fails with EEXIST, not EACCES: `mkdir -p` code relies on it.
    attempt("existing_folder", ::mkdir(home().c_str(), 0700) == 0);
    attempt("scratch_mkdir", ::mkdir((scratch() / "sub").c_str(), 0700) == 0);
    attempt("scratch_rename",
            ::rename((scratch() / "out.bin").c_str(), (scratch() / "sub" / "moved.bin").c_str()) == 0);
    // Refused and named.
    attempt("home_write", create_file(planted));
    attempt("secret_read", open_for(home() / "secret.txt", O_RDONLY));
    attempt("cache_overwrite", open_for(cache() / "reference.so", O_WRONLY));
    attempt("cache_remove", ::unlink((cache() / "reference.so").c_str()) == 0);
    attempt("task_chmod", ::chmod((task() / "task.toml").c_str(), 0777) == 0);
    attempt("task_mkdir", ::mkdir((task() / "sub").c_str(), 0700) == 0);
    // Through a symbolic link made in the scratch folder, and through a relative path.
    attempt("symlink_made", ::symlink((home() / "secret.txt").c_str(), (scratch() / "link").c_str()) == 0);
    attempt("symlink_read", open_for(scratch() / "link", O_RDONLY));
    attempt("chdir_scratch", ::chdir(scratch().c_str()) == 0);
    attempt("relative_read", open_for("../home/secret.txt", O_RDONLY));
    attempt("ptrace", ::ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) == 0);
    attempt("inet_socket", ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0) >= 0);
    pid_t const forked = ::fork();
    if (forked == 0) ::_exit(0);
    if (forked > 0) ::waitpid(forked, nullptr, 0);
    attempt("fork", forked >= 0);
    char arg0[] = "true";
    char* argv[] = {arg0, nullptr};
    attempt("execve", ::execve("/bin/true", argv, environ) == 0);
    // Threads still start, unreported.
    bool ran = false;
    std::thread([&ran] { ran = true; }).join();
    attempt("thread", ran);
  });
  ASSERT_EQ(watched.exit_code, 0) << watched.text;
  EXPECT_EQ(watched.values.at("missing"), 0) << watched.text;
  EXPECT_EQ(watched.values.at("survived"), 1) << watched.text;
  for (char const* allowed : {"scratch_write", "task_read", "dev_null", "proc_self", "scratch_mkdir",
                              "scratch_rename", "symlink_made", "chdir_scratch", "thread"}) {
    EXPECT_EQ(watched.values.at(allowed), 0) << allowed << "\n" << watched.text;
    EXPECT_EQ(watched.values.at(std::string(allowed) + "_reports"), 0) << allowed << "\n" << watched.text;
  }
  EXPECT_EQ(watched.values.at("missing_file"), ENOENT) << watched.text;
  EXPECT_EQ(watched.values.at("missing_file_reports"), 0) << watched.text;
  EXPECT_EQ(watched.values.at("existing_folder"), EEXIST) << watched.text;
  EXPECT_EQ(watched.values.at("existing_folder_reports"), 0) << watched.text;
  struct Expected {
    char const* name;
    int error;
    std::string report;
  };
  std::string const secret = (home() / "secret.txt").string();
  for (Expected const& e : std::vector<Expected>{
           {"home_write", EACCES, "write outside the scratch folder: " + planted.string() + " (open"},
           {"secret_read", EACCES, "read outside the readable folders: " + secret + " (open"},
           {"cache_overwrite", EACCES,
            "write outside the scratch folder: " + (cache() / "reference.so").string()},
           {"cache_remove", EACCES, "(unlink"},
           {"task_chmod", EACCES, "write outside the scratch folder: " + (task() / "task.toml").string()},
           {"task_mkdir", EACCES, "(mkdir"},
           {"symlink_read", EACCES, "read outside the readable folders: " + secret},
           {"relative_read", EACCES, "read outside the readable folders: " + secret},
           {"ptrace", EPERM, "refused system call ptrace"},
           {"inet_socket", EPERM, "refused system call socket (AF_INET)"},
           {"fork", EPERM, "refused system call clone (a new process)"},
           {"execve", EPERM, "refused system call execve"},
       }) {
    EXPECT_EQ(watched.values.at(e.name), e.error) << e.name << "\n" << watched.text;
    EXPECT_EQ(watched.values.at(std::string(e.name) + "_reports"), 1) << e.name << "\n" << watched.text;
    std::string const prefix = std::string("report[") + e.name + "]=";
    std::size_t const at = watched.text.find(prefix);
    ASSERT_NE(at, std::string::npos) << e.name << "\n" << watched.text;
    std::string const line = watched.text.substr(at, watched.text.find('\n', at) - at);
    EXPECT_NE(line.find(e.report), std::string::npos) << "expected '" << e.report << "' in: " << line;
  }
  EXPECT_FALSE(std::filesystem::exists(planted));
  EXPECT_TRUE(std::filesystem::exists(cache() / "reference.so"));
}

TEST_F(ConfinementTest, UnderASanitizerIpSocketsStayAllowed) {
  auto const report = confined_child(
      [&](Reporter& r) {
        r.call("inet_socket", ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0) >= 0);
        r.call("netlink_socket", ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 0) >= 0);
        char arg0[] = "true";
        char* argv[] = {arg0, nullptr};
        r.call("execve", ::execve("/bin/true", argv, environ) == 0);
      },
      /*tool_sockets=*/true);
  ASSERT_EQ(report.exit_code, 0) << report.text;
  EXPECT_EQ(report.values.at("inet_socket"), 0) << report.text;
  EXPECT_EQ(report.values.at("netlink_socket"), EPERM) << report.text;
  EXPECT_EQ(report.values.at("execve"), EPERM) << report.text;
}

// CUDA's threads and the watchdog exist before the worker confines itself: they are confined too.
TEST_F(ConfinementTest, ConfinesThreadsStartedBeforeIt) {
  std::filesystem::path const planted = home() / "from-thread";
  auto const report = in_child([&](Reporter& r) {
    std::mutex mutex;
    std::condition_variable cv;
    bool parked = false;
    bool go = false;
    std::thread early([&] {
      std::unique_lock lock(mutex);
      parked = true;
      cv.notify_one();
      cv.wait(lock, [&] { return go; });
      r.call("early_thread_home", create_file(planted));
      r.call("early_thread_scratch", create_file(scratch() / "from-thread"));
    });
    // The watch's supervisor is forked in prepare() and allocates after the fork. glibc's malloc is
    // fork-safe (its fork handler holds every arena lock across the fork); clang 14's ASan allocator is
    // not: a thread still starting (allocating) at the fork left the supervisor waiting on a lock no one
    // would release, and the early thread's watched open() waiting on the supervisor (CI, 2026-12-06,
    // 6 hangs in 40 runs under load). So the thread is parked before the fork (kopt-worker itself runs on
    // glibc's malloc).
    {
      std::unique_lock lock(mutex);
      cv.wait(lock, [&] { return parked; });
    }
    Confinement confinement = Confinement::prepare(options());
    confinement.apply({});
    r.line("missing", static_cast<int>(confinement.missing().size()));
    {
      std::lock_guard lock(mutex);
      go = true;
    }
    cv.notify_one();
    early.join();
    std::thread late([&] { r.call("late_thread_home", create_file(planted)); });
    late.join();
  });
  ASSERT_EQ(report.exit_code, 0) << report.text;
  EXPECT_EQ(report.values.at("missing"), 0) << report.text;
  EXPECT_EQ(report.values.at("early_thread_home"), EACCES) << report.text;
  EXPECT_EQ(report.values.at("early_thread_scratch"), 0) << report.text;
  EXPECT_EQ(report.values.at("late_thread_home"), EACCES) << report.text;
  EXPECT_FALSE(std::filesystem::exists(planted));
}

TEST_F(ConfinementTest, WithoutConfinementTheSameCallsSucceed) {
  // The control: the attempts above are refused because of the confinement, not by the machine.
  auto const report = in_child([&](Reporter& r) {
    r.call("home", create_file(home() / "planted"));
    r.call("secret", open_for(home() / "secret.txt", O_RDONLY));
    r.call("cache_overwrite", open_for(cache() / "reference.so", O_WRONLY));
  });
  ASSERT_EQ(report.exit_code, 0) << report.text;
  EXPECT_EQ(report.values.at("home"), 0) << report.text;
  EXPECT_EQ(report.values.at("secret"), 0) << report.text;
  EXPECT_EQ(report.values.at("cache_overwrite"), 0) << report.text;
}

TEST_F(ConfinementTest, ReportsWhatIsInForceAndWhatIsMissing) {
  ConfinementOptions o = options();
  Confinement const prepared = Confinement::prepare(o);
  ASSERT_EQ(prepared.active().size(), 3u) << ::testing::PrintToString(prepared.missing());
  EXPECT_EQ(prepared.active()[0], "landlock (abi " + std::to_string(abi_) + ")");
  EXPECT_EQ(prepared.active()[1], "seccomp");
  EXPECT_EQ(prepared.active()[2], "watch");
  EXPECT_TRUE(prepared.missing().empty());

  o.landlock = false;
  o.seccomp = false;
  Confinement const off = Confinement::prepare(o);
  EXPECT_TRUE(off.active().empty());
  ASSERT_EQ(off.missing().size(), 2u);
  EXPECT_NE(off.missing()[0].find("landlock: turned off"), std::string::npos);

  o = options();
  o.scratch.clear();
  Confinement const no_scratch = Confinement::prepare(o);
  EXPECT_EQ(no_scratch.missing().at(0), "landlock: no scratch folder to confine writes to");
}

// The whole start-up path of kopt-worker (Sandbox::enter, then confine with the first request's
// folders), as the isolation string reports it.
TEST_F(ConfinementTest, SandboxReportsEachMechanism) {
  std::filesystem::path const tmp = root_.path() / "tmp";
  std::filesystem::create_directories(tmp);
  auto const report = in_child([&](Reporter& r) {
    ::setenv("TMPDIR", tmp.c_str(), 1);
    Sandbox sandbox = Sandbox::enter(SandboxOptions{.read = {cache()}});
    std::string const before = sandbox.isolation();
    sandbox.confine({task()});
    std::string const after = sandbox.isolation();
    r.line("has_landlock " + std::to_string(after.find("landlock (abi ") != std::string::npos), 0);
    r.line("has_seccomp " + std::to_string(after.find("seccomp") != std::string::npos), 0);
    r.line("same_report " + std::to_string(before == after), 0);
    r.call("task", open_for(task() / "task.toml", O_RDONLY));
    r.call("cache", open_for(cache() / "reference.so", O_RDONLY));
    r.call("secret", open_for(home() / "secret.txt", O_RDONLY));
    r.call("cwd_is_scratch", create_file("here"));
    r.line("scratch_under_tmp " + std::to_string(sandbox.scratch().parent_path() == tmp), 0);
    sandbox.leave();
  });
  ASSERT_EQ(report.exit_code, 0) << report.text;
  EXPECT_TRUE(report.values.count("has_landlock 1")) << report.text;
  EXPECT_TRUE(report.values.count("has_seccomp 1")) << report.text;
  EXPECT_TRUE(report.values.count("same_report 1")) << report.text;
  EXPECT_TRUE(report.values.count("scratch_under_tmp 1")) << report.text;
  EXPECT_EQ(report.values.at("task"), 0) << report.text;
  EXPECT_EQ(report.values.at("cache"), 0) << report.text;
  EXPECT_EQ(report.values.at("secret"), EACCES) << report.text;
  EXPECT_EQ(report.values.at("cwd_is_scratch"), 0) << report.text;
  // The scratch folder's remover (a child started before confinement) removes it once the worker ended.
  for (int i = 0; i < 200 && !std::filesystem::is_empty(tmp); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(std::filesystem::is_empty(tmp)) << "the scratch folder is removed at exit";
}

TEST(SandboxTest, DisabledSandboxReportsEverythingMissing) {
  auto const report = in_child([](Reporter& r) {
    Sandbox const sandbox = Sandbox::enter(SandboxOptions{.enable = false});
    r.line(sandbox.isolation(), 0);
    r.line("complete", sandbox.complete() ? 1 : 0);
  });
  ASSERT_EQ(report.exit_code, 0) << report.text;
  EXPECT_TRUE(report.values.count("none; missing: every measure (--no-sandbox)")) << report.text;
  EXPECT_EQ(report.values.at("complete"), 0);
}

// kopt-worker itself, without a GPU: --require-isolation is checked before the device is touched.
TEST(WorkerRequireIsolation, RefusesToStartWithoutEveryMeasure) {
  std::filesystem::path const worker = std::filesystem::path(KOPT_BINARY_DIR) / "bin" / "kopt-worker";
  ASSERT_TRUE(std::filesystem::exists(worker)) << worker;
  std::string const hello =
      "echo '{\"op\":\"hello\",\"id\":0,\"protocol\":" + std::to_string(kProtocolVersion) + "}' | ";
  auto const no_sandbox =
      run_command(hello + shell_quote(worker.string()) + " --no-sandbox --require-isolation");
  EXPECT_EQ(no_sandbox.exit_code, 1) << no_sandbox.output;
  EXPECT_NE(no_sandbox.output.find("isolation is required (--require-isolation)"), std::string::npos)
      << no_sandbox.output;
  EXPECT_NE(no_sandbox.output.find("every measure (--no-sandbox)"), std::string::npos) << no_sandbox.output;
  // The setting's variable, as kopt passes it, with Landlock and seccomp turned off.
  auto const unconfined = run_command(hello + "KOPT_WORKER_REQUIRE_ISOLATION=1 KOPT_WORKER_CONFINE=0 " +
                                      shell_quote(worker.string()));
  EXPECT_EQ(unconfined.exit_code, 1) << unconfined.output;
  EXPECT_NE(unconfined.output.find("landlock: turned off"), std::string::npos) << unconfined.output;
  EXPECT_NE(unconfined.output.find("seccomp: turned off"), std::string::npos) << unconfined.output;
}

TEST(ConfinementPaths, NamesTheTaskFolderAndEachArtifactsFolder) {
  nlohmann::json const request = {{"op", "evaluate"},
                                  {"task_dir", "/work/tasks/softmax"},
                                  {"reference", {{"path", "/cache/kopt/ab12.so"}, {"symbol", "launch"}}},
                                  {"candidate", {{"path", "/cache/kopt/cd34.cubin"}}},
                                  {"baseline", nullptr},
                                  {"sizes", {"small"}}};
  auto const folders = folders_read_by(request);
  ASSERT_EQ(folders.size(), 2u);
  EXPECT_EQ(folders[0], "/cache/kopt");  // nlohmann orders keys: "candidate" before "task_dir"
  EXPECT_EQ(folders[1], "/work/tasks/softmax");
  EXPECT_TRUE(folders_read_by(nlohmann::json{{"op", "calibrate"}}).empty());
}

TEST(ConfinementPaths, AddsEachFolderToTheWorkerArgumentsOnce) {
  std::vector<std::string> args = {"--no-calibration"};
  EXPECT_TRUE(add_allow_read_arguments(args, {"/a", "/b"}));
  EXPECT_FALSE(add_allow_read_arguments(args, {"/b", "/a"}));
  EXPECT_TRUE(add_allow_read_arguments(args, {"/a", "/c"}));
  EXPECT_EQ(args, (std::vector<std::string>{"--no-calibration", "--allow-read", "/a", "--allow-read", "/b",
                                            "--allow-read", "/c"}));
}

}  // namespace confinement_test
}  // namespace kopt::worker
