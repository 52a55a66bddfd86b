// The kopt side of a GPU worker: spawns `kopt-worker`, exchanges JSON lines, watches for hangs and
// crashes, restarts the worker when a candidate killed it. No CUDA in this process.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kopt/child_process.hpp"
#include "kopt/device.hpp"
#include "kopt/result.hpp"

namespace kopt::worker {

struct WorkerOptions {
  std::filesystem::path worker_path;  // the kopt-worker executable
  int device = 0;
  std::vector<std::string> wrapper;     // e.g. {"compute-sanitizer", "--tool", "memcheck"}
  std::vector<std::string> extra_args;  // appended to the worker's own arguments
  std::chrono::milliseconds start_timeout{60000};
};

// What came back for one request.
struct Reply {
  nlohmann::json body;          // the reply line (may carry "fatal" when the worker died)
  bool worker_died = false;     // the worker exited or was killed during the request
  bool client_timeout = false;  // no message for idle_timeout: the client killed it
  ExitInfo exit;                // when worker_died
  std::string stderr_tail;      // when worker_died
};

using EventCallback = std::function<void(nlohmann::json const&)>;

class WorkerClient {
 public:
  // Spawns the worker and performs the hello exchange. ErrorCode::no_gpu when it finds no device.
  static Result<WorkerClient> start(WorkerOptions options);

  DeviceInfo const& device() const noexcept { return device_; }

  // Sends `request` (an "id" is added) and waits for its reply. Every event line resets the idle
  // deadline. A dead worker is restarted before the next request.
  Result<Reply> request(nlohmann::json request, std::chrono::milliseconds idle_timeout,
                        EventCallback const& on_event = {});

  void shutdown();

  // Folders the worker must never read, even beneath a readable folder (the reference's runtime: PyTorch's
  // package for a PyTorch task, docs/pytorch.md). A folder the running worker was not started with makes the
  // next request go to a fresh worker started with --deny-read for it.
  void deny_read(std::vector<std::filesystem::path> const& folders);

 private:
  Status spawn_and_hello();
  WorkerOptions options_;
  ChildProcess child_;
  DeviceInfo device_;
  std::int64_t next_id_ = 1;
};

// The environment a worker gets: a short allow-list (PATH, LD_LIBRARY_PATH, CUDA_*, TMPDIR, ...).
// Nothing else crosses, so API keys and tokens in kopt's environment never reach candidate code.
std::vector<std::string> worker_environment();

}  // namespace kopt::worker
