#include "worker/gpu/watch_policy.hpp"

#include <sys/stat.h>

#include <sstream>
#include <system_error>

namespace kopt::worker {
namespace {

bool exists_no_follow(std::filesystem::path const& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// Component-wise: /a/bc is not beneath /a/b.
bool beneath(std::filesystem::path const& path, std::filesystem::path const& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

bool beneath_any(std::filesystem::path const& path, std::vector<std::filesystem::path> const& roots) {
  for (auto const& root : roots) {
    if (beneath(path, root)) return true;
  }
  return false;
}

std::filesystem::path canonical_or_empty(std::filesystem::path const& path) {
  std::error_code ec;
  auto out = std::filesystem::canonical(path, ec);
  return ec ? std::filesystem::path() : out;
}

}  // namespace

std::string to_text(WatchPolicy const& policy) {
  std::ostringstream out;
  out << "pid " << policy.process_id << '\n';
  if (!policy.scratch.empty()) out << "scratch " << policy.scratch.string() << '\n';
  for (auto const& path : policy.readable) out << "read " << path.string() << '\n';
  for (auto const& path : policy.devices) out << "device " << path.string() << '\n';
  for (auto const& path : policy.forbidden) out << "deny " << path.string() << '\n';
  return out.str();
}

Result<WatchPolicy> watch_policy_from_text(std::string const& text) {
  WatchPolicy policy;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::size_t const space = line.find(' ');
    std::string const kind = line.substr(0, space);
    std::string const value = space == std::string::npos ? std::string() : line.substr(space + 1);
    if (value.empty()) {
      return make_error(ErrorCode::internal_error,
                        "watch policy line " + std::to_string(number) + ": expected '<kind> <value>'");
    }
    if (kind == "pid") {
      policy.process_id = std::stoi(value);
    } else if (kind == "scratch") {
      policy.scratch = value;
    } else if (kind == "read") {
      policy.readable.emplace_back(value);
    } else if (kind == "device") {
      policy.devices.emplace_back(value);
    } else if (kind == "deny") {
      policy.forbidden.emplace_back(value);
    } else {
      return make_error(ErrorCode::internal_error,
                        "watch policy line " + std::to_string(number) + ": unknown kind '" + kind + "'");
    }
  }
  if (policy.process_id <= 0) return make_error(ErrorCode::internal_error, "watch policy: no pid line");
  return policy;
}

WatchPolicy resolved(WatchPolicy const& policy) {
  WatchPolicy out;
  out.process_id = policy.process_id;
  out.scratch = canonical_or_empty(policy.scratch);
  for (auto const& path : policy.readable) {
    if (auto c = canonical_or_empty(path); !c.empty()) out.readable.push_back(std::move(c));
  }
  for (auto const& path : policy.devices) {
    if (auto c = canonical_or_empty(path); !c.empty()) out.devices.push_back(std::move(c));
  }
  for (auto const& path : policy.forbidden) {
    if (auto c = canonical_or_empty(path); !c.empty()) out.forbidden.push_back(std::move(c));
  }
  return out;
}

std::filesystem::path resolve_path(std::string const& raw, std::filesystem::path const& base, int process_id,
                                   int thread_id) {
  std::filesystem::path path(raw);
  if (path.is_relative()) path = base / path;
  path = path.lexically_normal();
  // /proc/self names the process that follows the link: rename it for the watched one before any
  // link is followed here (in the supervisor's process).
  std::string text = path.string();
  std::string const pid = std::to_string(process_id);
  for (auto const& [alias, target] :
       {std::pair<std::string, std::string>{"/proc/self", "/proc/" + pid},
        std::pair<std::string, std::string>{"/proc/thread-self",
                                            "/proc/" + pid + "/task/" + std::to_string(thread_id)}}) {
    if (text == alias || text.rfind(alias + "/", 0) == 0) {
      text = target + text.substr(alias.size());
      break;
    }
  }
  std::error_code ec;
  auto canonical = std::filesystem::weakly_canonical(text, ec);
  return ec ? std::filesystem::path(text) : canonical;
}

PathJudgement judge(WatchPolicy const& policy, std::filesystem::path const& path, PathIntent intent,
                    PathUse use) {
  PathJudgement out;
  bool const there = exists_no_follow(path);
  if (use == PathUse::existing && !there) return out;                                 // ENOENT
  if (use != PathUse::existing && !exists_no_follow(path.parent_path())) return out;  // ENOENT
  if (use == PathUse::exclusive && there) return out;                                 // EEXIST
  if (beneath_any(path, policy.forbidden)) {
    out.violation = true;
    out.reason =
        "access to the reference's runtime (calling back into PyTorch is not a kernel): " + path.string();
    return out;
  }
  bool const scratch = !policy.scratch.empty() && beneath(path, policy.scratch);
  bool const device =
      beneath_any(path, policy.devices);  // a device folder (/dev/nvidia-caps) covers its files
  if (intent == PathIntent::write) {
    if (scratch || device) return out;
    out.violation = true;
    out.reason = "write outside the scratch folder: " + path.string();
    return out;
  }
  if (scratch || device || beneath_any(path, policy.readable)) return out;
  out.violation = true;
  out.reason = "read outside the readable folders: " + path.string();
  return out;
}

}  // namespace kopt::worker
