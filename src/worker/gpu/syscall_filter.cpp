#include "worker/gpu/syscall_filter.hpp"

#include <sched.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#if KOPT_HAVE_SECCOMP
#include <seccomp.h>

#include "kopt/text.hpp"
#endif

namespace kopt::worker {
namespace {

// Refused with EPERM. Debugging and other processes' memory; starting programs; the mount table and
// namespaces (unshare could make a user namespace whose root may mount); kernel modules, BPF, kexec;
// raw port I/O; keyrings (secrets); userfaultfd; io_uring (its operations bypass this filter: sockets
// could be opened through it); file handles (open_by_handle_at escapes folder-based rules).
constexpr char const* kRefused[] = {
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "execve",
    "execveat",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "unshare",
    "setns",
    "init_module",
    "finit_module",
    "delete_module",
    "bpf",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "iopl",
    "ioperm",
    "syslog",
    "keyctl",
    "add_key",
    "request_key",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "open_by_handle_at",
    "name_to_handle_at",
    "acct",
    "quotactl",
    "pidfd_getfd",  // another process's descriptors (the watch's supervisor holds the listener)
    "fork",         // a new process: clone without CLONE_THREAD is refused below as well
    "vfork",
};

// What Landlock checks, and so what the watch judges on its path (syscall_supervisor.cpp).
constexpr char const* kFileSystemCalls[] = {
    "open",      "openat",       "openat2",   "creat",       "mkdir",        "mkdirat",  "mknod",
    "mknodat",   "rmdir",        "unlink",    "unlinkat",    "rename",       "renameat", "renameat2",
    "link",      "linkat",       "symlink",   "symlinkat",   "truncate",     "chmod",    "fchmodat",
    "fchmodat2", "chown",        "lchown",    "fchownat",    "utime",        "utimes",   "futimesat",
    "utimensat", "setxattr",     "lsetxattr", "removexattr", "lremovexattr", "fchmod",   "fchown",
    "fsetxattr", "fremovexattr",
};

// clone() flags that make namespaces (refused like unshare).
constexpr unsigned long kNamespaceFlags[] = {CLONE_NEWNS,   CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
                                             CLONE_NEWUSER, CLONE_NEWPID,    CLONE_NEWNET};

std::string filter_error_text(int error) {
  return errno_text(error) + " (errno " + std::to_string(error) + ")";
}

// "The first argument, masked with mask, equals value": SCMP_A0(SCMP_CMP_MASKED_EQ, mask, value) without
// the macro's C99 compound literal, which C++ does not have (clang -Wpedantic rejects it).
scmp_arg_cmp first_argument_masked(std::uint64_t mask, std::uint64_t value) {
  return scmp_arg_cmp{.arg = 0, .op = SCMP_CMP_MASKED_EQ, .datum_a = mask, .datum_b = value};
}

}  // namespace

std::vector<std::string> refused_system_calls() {
  std::vector<std::string> names(std::begin(kRefused), std::end(kRefused));
  names.emplace_back("socket (every family; IP and Unix under compute-sanitizer)");
  names.emplace_back("clone with namespace flags, or without CLONE_THREAD (a new process)");
  names.emplace_back("clone3 (ENOSYS: the C library falls back to clone)");
  return names;
}

#if KOPT_HAVE_SECCOMP

bool notifications_supported() {
  // API level 6: SCMP_ACT_NOTIFY together with TSYNC (the kernel's SECCOMP_FILTER_FLAG_TSYNC_ESRCH).
  return seccomp_api_get() >= 6;
}

struct SyscallFilter::Impl {
  scmp_filter_ctx ctx = nullptr;
  bool notify = false;
  Impl() = default;
  Impl(Impl const&) = delete;
  Impl& operator=(Impl const&) = delete;
  ~Impl() {
    if (ctx != nullptr) seccomp_release(ctx);
  }
};

Result<SyscallFilter> SyscallFilter::build(SyscallFilterOptions const& options) {
  auto impl = std::make_unique<Impl>();
  impl->ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (impl->ctx == nullptr) return make_error(ErrorCode::io_error, "seccomp_init failed");
  auto fail = [](char const* what, int rc) {
    return make_error(ErrorCode::io_error, std::string("seccomp: ") + what + ": " + filter_error_text(-rc));
  };
  scmp_filter_ctx ctx = impl->ctx;
  impl->notify = options.notify;
  std::uint32_t const refuse = options.notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EPERM);
  // Every thread gets the filter (CUDA's threads exist before the worker confines itself); calls of
  // another architecture (int 0x80, x32) fail as refused ones do.
  if (int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1); rc != 0) return fail("TSYNC", rc);
  if (int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ERRNO(EPERM)); rc != 0)
    return fail("bad-architecture action", rc);
  for (char const* name : kRefused) {
    int const nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) continue;  // unknown to this libseccomp: the kernel has it not either
    if (int rc = seccomp_rule_add(ctx, refuse, nr, 0); rc != 0) return fail(name, rc);
  }
  for (unsigned long flag : kNamespaceFlags) {
    scmp_arg_cmp const has_flag = first_argument_masked(flag, flag);
    if (int rc = seccomp_rule_add_array(ctx, refuse, SCMP_SYS(clone), 1, &has_flag); rc != 0)
      return fail("clone", rc);
  }
  // A thread shares the process (CLONE_THREAD); anything else is a new process.
  scmp_arg_cmp const not_thread = first_argument_masked(CLONE_THREAD, 0);
  if (int rc = seccomp_rule_add_array(ctx, refuse, SCMP_SYS(clone), 1, &not_thread); rc != 0)
    return fail("clone", rc);
  if (options.notify) {
    for (char const* name : kFileSystemCalls) {
      int const nr = seccomp_syscall_resolve_name(name);
      if (nr == __NR_SCMP_ERROR) continue;  // not on this architecture (aarch64 has no open())
      if (int rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 0); rc != 0) return fail(name, rc);
    }
  }
  // clone3 passes its flags in memory, which a filter cannot read: refuse it as unimplemented.
  if (int const nr = seccomp_syscall_resolve_name("clone3"); nr != __NR_SCMP_ERROR) {
    if (int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0); rc != 0) return fail("clone3", rc);
  }
  // socket(): one rule per refused family (the kernel reads the family as a 32-bit int; families end
  // well below 128). socketpair() stays allowed: a pair reaches nothing outside the process.
  for (std::uint64_t family = 0; family < 128; ++family) {
    bool const tool_family = family == AF_INET || family == AF_INET6 || family == AF_UNIX;
    if (options.tool_sockets && tool_family) continue;
    scmp_arg_cmp const is_family = first_argument_masked(0xffffffffULL, family);
    if (int rc = seccomp_rule_add_array(ctx, refuse, SCMP_SYS(socket), 1, &is_family); rc != 0)
      return fail("socket", rc);
  }
  return SyscallFilter(std::move(impl));
}

Status SyscallFilter::load() {
  if (!impl_ || impl_->ctx == nullptr) return make_error(ErrorCode::internal_error, "no filter to load");
  if (int rc = seccomp_load(impl_->ctx); rc != 0) {
    return make_error(ErrorCode::io_error, "seccomp_load: " + filter_error_text(-rc));
  }
  return Ok{};
}

int SyscallFilter::notification_fd() const {
  if (!impl_ || impl_->ctx == nullptr || !impl_->notify) return -1;
  int const fd = seccomp_notify_fd(impl_->ctx);
  return fd >= 0 ? fd : -1;
}

#else  // built without libseccomp

bool notifications_supported() {
  return false;
}

struct SyscallFilter::Impl {};

int SyscallFilter::notification_fd() const {
  return -1;
}

Result<SyscallFilter> SyscallFilter::build(SyscallFilterOptions const& /*options*/) {
  return make_error(ErrorCode::not_found,
                    "kopt-worker was built without libseccomp (install libseccomp-dev)");
}

Status SyscallFilter::load() {
  return make_error(ErrorCode::not_found, "kopt-worker was built without libseccomp");
}

#endif

SyscallFilter::SyscallFilter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SyscallFilter::SyscallFilter(SyscallFilter&&) noexcept = default;
SyscallFilter& SyscallFilter::operator=(SyscallFilter&&) noexcept = default;
SyscallFilter::~SyscallFilter() = default;

}  // namespace kopt::worker
