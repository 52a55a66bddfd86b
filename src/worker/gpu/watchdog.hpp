// In-worker watchdog: a candidate call is armed with a deadline; if it has not returned (including
// its device synchronisation) by then, the watchdog reports "timeout" for the request in flight and
// ends the process. Exiting tears the CUDA context down, which stops the hung kernel. The client
// keeps its own, coarser, idle timeout as a second line of defence.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "worker/gpu/emitter.hpp"

namespace kopt::worker {

class Watchdog {
 public:
  explicit Watchdog(Emitter& emitter);
  ~Watchdog();
  Watchdog(Watchdog const&) = delete;
  Watchdog& operator=(Watchdog const&) = delete;

  void arm(double deadline_ms, std::string what);
  void disarm();

 private:
  void loop();
  Emitter& emitter_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool armed_ = false;
  bool stop_ = false;
  std::chrono::steady_clock::time_point deadline_;
  double deadline_ms_ = 0;
  std::string what_;
  std::thread thread_;
};

// Arms on construction, disarms on destruction.
class WatchdogScope {
 public:
  WatchdogScope(Watchdog& dog, double deadline_ms, std::string what) : dog_(dog) {
    dog_.arm(deadline_ms, std::move(what));
  }
  ~WatchdogScope() { dog_.disarm(); }
  WatchdogScope(WatchdogScope const&) = delete;
  WatchdogScope& operator=(WatchdogScope const&) = delete;

 private:
  Watchdog& dog_;
};

}  // namespace kopt::worker
