// A pool of persistent kopt-compile processes for kernel-mode compiles: NVRTC scales better across
// processes than across threads of one process (docs/benchmarks.md, "Compile throughput"). Each
// compile takes an idle process (starting it on first use), sends one request line and waits for the
// reply. A process that dies or does not answer in time is reaped, that request comes back as an Error
// naming what happened, and a fresh process is started for the next request.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compile/backends.hpp"
#include "kopt/child_process.hpp"
#include "kopt/compile.hpp"

namespace kopt::detail {

class CompilePool {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout{std::chrono::minutes(5)};

  // `server` is the kopt-compile executable (not checked here); `processes` >= 1.
  CompilePool(std::filesystem::path server, unsigned processes,
              std::chrono::milliseconds timeout = kDefaultTimeout);
  ~CompilePool();
  CompilePool(CompilePool const&) = delete;
  CompilePool& operator=(CompilePool const&) = delete;
  CompilePool(CompilePool&&) = delete;
  CompilePool& operator=(CompilePool&&) = delete;

  // Starts every process that is not running yet, so that their start-up (and NVRTC's) overlaps other
  // work instead of the first compiles. A process that cannot be started is left for compile() to report.
  void start_all();

  // Compiles a kernel-mode request in one of the processes (waits for an idle one). A request whose
  // text is not valid UTF-8 cannot travel as JSON and is compiled in this process instead.
  Result<CompileOutcome> compile(CompileRequest const& request, BuildContext const& context);

  std::filesystem::path const& server() const noexcept { return server_; }
  std::size_t size() const noexcept { return slots_.size(); }
  // Process ids of the running processes (for tests and diagnostics).
  std::vector<int> pids() const;
  // How many processes were started so far, first starts included.
  std::size_t starts() const noexcept { return starts_.load(); }

 private:
  struct Slot {
    ChildProcess child;
    bool busy = false;
  };

  std::size_t acquire();
  void release(std::size_t index);
  Result<CompileOutcome> exchange(Slot& slot, std::string const& line, std::int64_t id,
                                  CompileRequest const& request);
  Status start(Slot& slot);
  Error child_failed(Slot& slot, CompileRequest const& request, std::string const& what);

  std::filesystem::path server_;
  std::chrono::milliseconds timeout_;
  std::vector<std::string> environment_;
  mutable std::mutex mutex_;
  std::condition_variable idle_;
  std::vector<Slot> slots_;
  std::atomic<std::int64_t> next_id_{1};
  std::atomic<std::size_t> starts_{0};
};

}  // namespace kopt::detail
