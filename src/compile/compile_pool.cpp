// CompilePool: kernel-mode compiles in persistent kopt-compile processes, one request at a time each.
#include "compile/compile_pool.hpp"

#include <fmt/format.h>
#include <unistd.h>  // environ

#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>

#include "compile/compile_json.hpp"

namespace kopt::detail {
namespace {

// The parent's environment (PATH, LD_LIBRARY_PATH, CUDA_HOME, ...) with the driver's compute cache off,
// as in this process (see disable_driver_compile_cache in compiler.cpp).
std::vector<std::string> server_environment() {
  constexpr char kCacheDisable[] = "CUDA_CACHE_DISABLE=";
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (std::strncmp(*e, kCacheDisable, sizeof kCacheDisable - 1) != 0) env.emplace_back(*e);
  }
  env.emplace_back(std::string(kCacheDisable) + "1");
  return env;
}

double seconds(std::chrono::milliseconds duration) {
  return std::chrono::duration<double>(duration).count();
}

}  // namespace

CompilePool::CompilePool(std::filesystem::path server, unsigned processes, std::chrono::milliseconds timeout)
    : server_(std::move(server)),
      timeout_(timeout),
      environment_(server_environment()),
      slots_(std::max(1u, processes)) {
  ::signal(SIGPIPE, SIG_IGN);  // a dead kopt-compile must not take kopt down with it
}

CompilePool::~CompilePool() {
  for (Slot& slot : slots_) {
    if (slot.child.running()) slot.child.close_and_wait(std::chrono::seconds(2));  // it exits on EOF
  }
}

std::vector<int> CompilePool::pids() const {
  std::lock_guard lock(mutex_);
  std::vector<int> pids;
  for (Slot const& slot : slots_) {
    if (slot.child.running()) pids.push_back(slot.child.pid());
  }
  return pids;
}

std::size_t CompilePool::acquire() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // An idle running process first (no start-up), else any idle slot.
    std::optional<std::size_t> chosen;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].busy) continue;
      if (slots_[i].child.running()) {
        chosen = i;
        break;
      }
      if (!chosen) chosen = i;
    }
    if (chosen) {
      slots_[*chosen].busy = true;
      return *chosen;
    }
    idle_.wait(lock);
  }
}

void CompilePool::release(std::size_t index) {
  {
    std::lock_guard lock(mutex_);
    slots_[index].busy = false;
  }
  idle_.notify_one();
}

Status CompilePool::start(Slot& slot) {
  if (slot.child.running()) return Ok{};
  auto child = ChildProcess::spawn({server_.string()}, environment_);
  if (!child) {
    return make_error(ErrorCode::toolchain_error, fmt::format("cannot start the compile server {}: {}",
                                                              server_.string(), child.error().message));
  }
  slot.child = std::move(*child);
  starts_.fetch_add(1);
  return Ok{};
}

void CompilePool::start_all() {
  std::lock_guard lock(mutex_);
  for (Slot& slot : slots_) {
    if (!slot.busy) (void)start(slot);  // a failure shows again, with its reason, at the first compile
  }
}

Error CompilePool::child_failed(Slot& slot, CompileRequest const& request, std::string const& what) {
  int const pid = slot.child.pid();
  ExitInfo const exit = slot.child.kill_and_wait();
  std::string tail = slot.child.stderr_tail(2000);
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  slot.child = ChildProcess();  // closes the pipes; the next request starts a fresh process
  return make_error(ErrorCode::toolchain_error,
                    fmt::format("the compile server {} (pid {}) {} {} ({}){}; a fresh one is started for the "
                                "next request",
                                server_.string(), pid, what, origin_name(request), exit.describe(),
                                tail.empty() ? "" : ", its stderr: " + tail));
}

Result<CompileOutcome> CompilePool::exchange(Slot& slot, std::string const& line, std::int64_t id,
                                             CompileRequest const& request) {
  if (auto started = start(slot); !started) return started.error();
  if (auto status = slot.child.write_line(line); !status) {
    return child_failed(slot, request, "was gone before it could compile");
  }
  auto reply_line = slot.child.read_line(timeout_);
  if (!reply_line) return child_failed(slot, request, "died while compiling");
  if (!reply_line->has_value()) {
    return child_failed(
        slot, request,
        fmt::format("did not answer within {:.0f} s and was stopped while compiling", seconds(timeout_)));
  }
  auto reply = parse_server_reply(**reply_line);
  if (!reply)
    return child_failed(slot, request, "broke the protocol (" + reply.error().message + ") while compiling");
  if (reply->id && *reply->id != id) {
    return child_failed(slot, request,
                        fmt::format("answered request {} instead of {} while compiling", *reply->id, id));
  }
  return std::move(reply->outcome);
}

Result<CompileOutcome> CompilePool::compile(CompileRequest const& request, BuildContext const& context) {
  ServerRequest message;
  message.id = next_id_.fetch_add(1);
  message.key = context.key;
  message.options = context.options;
  message.request = request;
  std::string line;
  try {
    line = server_request_line(message);
  } catch (nlohmann::json::exception const&) {
    return compile_kernel_nvrtc(request, context);  // not UTF-8: JSON would alter it on the way
  }
  struct Release {  // NOLINT(cppcoreguidelines-special-member-functions): a scope guard, never copied
    CompilePool& pool;
    std::size_t index;
    ~Release() { pool.release(index); }
  } const held{*this, acquire()};
  return exchange(slots_[held.index], line, message.id, request);
}

}  // namespace kopt::detail
