#include "worker/gpu/confinement.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <system_error>

namespace kopt::worker {
namespace {

bool path_exists(std::filesystem::path const& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

// The folders of a colon-separated list (LD_LIBRARY_PATH).
void add_list(std::vector<std::filesystem::path>& out, char const* list) {
  if (list == nullptr) return;
  std::string_view rest(list);
  while (!rest.empty()) {
    std::size_t const colon = rest.find(':');
    std::string_view const item = rest.substr(0, colon);
    if (!item.empty()) out.emplace_back(std::string(item));
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
  }
}

void add_env(std::vector<std::filesystem::path>& out, char const* name, bool parent) {
  char const* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return;
  std::filesystem::path path(value);
  out.push_back(parent ? path.parent_path() : path);
}

// /proc without the other processes' folders: a rule on /proc would let the worker read kopt's
// environment (API keys) in /proc/<kopt>/environ (Landlock's ptrace restriction does not stop root there).
void add_proc(std::vector<std::filesystem::path>& out) {
  std::string const self = std::to_string(::getpid());
  std::error_code ec;
  for (auto const& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::string const name = entry.path().filename().string();
    bool const pid = !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
    if (!pid || name == self) out.push_back(entry.path());
  }
}

}  // namespace

std::vector<std::filesystem::path> default_system_paths() {
  std::vector<std::filesystem::path> candidates = {
      "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/opt", "/sys",
      // The dynamic loader and the C library read these when a library is loaded (dlopen of a candidate,
      // of NVML, of CUPTI) or a time is formatted; /etc as a whole stays closed (/etc/shadow).
      "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/nsswitch.conf",
      "/etc/passwd", "/etc/group", "/etc/nvidia"};
  add_env(candidates, "CUDA_HOME", false);
  add_env(candidates, "CUDA_PATH", false);
  add_env(candidates, "KOPT_WORKER_CUPTI_LIBRARY", true);
  add_list(candidates, std::getenv("LD_LIBRARY_PATH"));
  add_proc(candidates);
  std::vector<std::filesystem::path> out;
  for (auto const& path : candidates) {
    if (path.is_absolute() && path_exists(path)) out.push_back(path);
  }
  return out;
}

std::vector<std::filesystem::path> default_device_paths() {
  std::vector<std::filesystem::path> out;
  for (char const* name : {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}) {
    if (path_exists(name)) out.emplace_back(name);
  }
  std::error_code ec;
  for (auto const& entry : std::filesystem::directory_iterator("/dev", ec)) {
    if (entry.path().filename().string().rfind("nvidia", 0) == 0) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Confinement Confinement::prepare(ConfinementOptions const& options) {
  Confinement c;
  if (options.landlock) {
    LandlockOptions landlock_options;
    landlock_options.deny_tcp = !options.tool_sockets;
    landlock_options.scope_abstract_unix = !options.tool_sockets;
    auto ruleset = LandlockRuleset::create(landlock_options);
    if (!ruleset) {
      c.missing_.push_back("landlock: " + ruleset.error().message);
    } else {
      c.landlock_abi_ = ruleset->abi();
      std::string failed;
      auto allow_all = [&](std::vector<std::filesystem::path> const& paths, PathAccess access) {
        for (auto const& path : paths) {
          if (auto st = ruleset->allow(path, access); !st && failed.empty()) failed = st.error().message;
        }
      };
      allow_all(options.system, PathAccess::read);
      allow_all(options.read, PathAccess::read);
      allow_all(options.devices, PathAccess::device);
      if (!options.scratch.empty()) allow_all({options.scratch}, PathAccess::write);
      if (options.scratch.empty()) {
        c.missing_.emplace_back("landlock: no scratch folder to confine writes to");
      } else if (!failed.empty()) {
        c.missing_.push_back("landlock: " + failed);
      } else {
        c.landlock_.emplace(std::move(*ruleset));
      }
    }
  } else {
    c.missing_.push_back("landlock: " + options.off_reason);
  }
  c.tool_sockets_ = options.tool_sockets;
  c.policy_.scratch = options.scratch;
  c.policy_.readable = options.system;
  c.policy_.readable.insert(c.policy_.readable.end(), options.read.begin(), options.read.end());
  c.policy_.devices = options.devices;
  c.policy_.forbidden = options.deny;
  c.policy_.process_id = static_cast<int>(::getpid());
  bool notify = false;
  if (options.seccomp && options.watch) {
    if (!notifications_supported()) {
      c.missing_.emplace_back(
          "watch: this libseccomp or kernel cannot notify a supervisor (libseccomp API < 6)");
    } else if (auto watch = SyscallWatch::start(); !watch) {
      c.missing_.push_back("watch: " + watch.error().message);
    } else {
      c.watch_.emplace(std::move(*watch));
      notify = true;
    }
  } else if (!options.watch && options.seccomp) {
    c.missing_.emplace_back("watch: turned off (KOPT_WORKER_WATCH=0)");
  }
  if (options.seccomp) {
    auto filter =
        SyscallFilter::build(SyscallFilterOptions{.tool_sockets = options.tool_sockets, .notify = notify});
    if (filter) {
      c.filter_.emplace(std::move(*filter));
    } else {
      c.missing_.push_back("seccomp: " + filter.error().message);
    }
  } else {
    c.missing_.push_back("seccomp: " + options.off_reason);
  }
  if (c.landlock_) c.active_.push_back("landlock (abi " + std::to_string(c.landlock_abi_) + ")");
  if (c.filter_) c.active_.emplace_back("seccomp");
  if (c.filter_ && c.watch_) c.active_.emplace_back("watch");
  return c;
}

Confinement::Confinement(Confinement&&) noexcept = default;
Confinement& Confinement::operator=(Confinement&&) noexcept = default;
Confinement::~Confinement() = default;

void Confinement::apply(std::vector<std::filesystem::path> const& read,
                        std::vector<std::filesystem::path> const& devices) {
  if (applied_) return;
  applied_ = true;
  active_.clear();
  if (landlock_) {
    for (auto const& path : read) {
      if (path_exists(path)) (void)landlock_->allow(path, PathAccess::read);
    }
    for (auto const& path : devices) (void)landlock_->allow(path, PathAccess::device);
    auto threads = landlock_->restrict_all_threads();
    if (!threads) {
      missing_.push_back("landlock: " + threads.error().message);
    } else {
      std::string entry = "landlock (abi " + std::to_string(landlock_abi_) + ")";
      if (threads->unconfined > 0) {
        missing_.push_back("landlock: " + std::to_string(threads->unconfined) + " of " +
                           std::to_string(threads->confined + threads->unconfined) +
                           " threads did not confine themselves (the signal is blocked in them)");
      }
      active_.push_back(std::move(entry));
    }
    landlock_.reset();
  }
  for (auto const& path : read) policy_.readable.push_back(path);
  for (auto const& path : devices) policy_.devices.push_back(path);
  if (filter_ && watch_ && !watch_->running()) {
    // The supervisor is gone: a filter that notifies would leave its calls unanswered (ENOSYS).
    missing_.emplace_back("watch: its supervisor exited before the worker confined itself");
    watch_.reset();
    auto plain = SyscallFilter::build(SyscallFilterOptions{.tool_sockets = tool_sockets_});
    if (plain) {
      filter_.emplace(std::move(*plain));
    } else {
      missing_.push_back("seccomp: " + plain.error().message);
      filter_.reset();
    }
  }
  bool watching = false;  // the supervisor holds the loaded filter's listener
  if (filter_) {
    if (auto st = filter_->load(); !st) {
      missing_.push_back("seccomp: " + st.error().message);
    } else {
      active_.emplace_back("seccomp");
      if (watch_) {
        if (auto handed = watch_->hand_over(filter_->notification_fd(), policy_); !handed) {
          missing_.push_back("watch: " + handed.error().message);
        } else {
          active_.emplace_back("watch");
          watching = true;
        }
      }
    }
    filter_.reset();
  }
  if (!watching) watch_.reset();
}

std::vector<std::string> Confinement::take_violations() {
  return watch_ ? watch_->take() : std::vector<std::string>{};
}

std::vector<std::string> Confinement::active() const {
  return active_;
}

std::vector<std::string> Confinement::missing() const {
  return missing_;
}

}  // namespace kopt::worker
