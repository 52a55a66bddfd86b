#include "worker/gpu/watchdog.hpp"

#include <unistd.h>

#include <cstdio>

#include "kopt/worker/protocol.hpp"

namespace kopt::worker {

Watchdog::Watchdog(Emitter& emitter) : emitter_(emitter), thread_([this] { loop(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Watchdog::arm(double deadline_ms, std::string what) {
  {
    std::lock_guard lock(mutex_);
    armed_ = true;
    deadline_ms_ = deadline_ms;
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::microseconds(static_cast<long long>(deadline_ms * 1000.0));
    what_ = std::move(what);
  }
  cv_.notify_all();
}

void Watchdog::disarm() {
  std::lock_guard lock(mutex_);
  armed_ = false;
}

void Watchdog::loop() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    if (!armed_) {
      cv_.wait(lock);
      continue;
    }
    auto const deadline = deadline_;
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && armed_ && deadline_ == deadline) {
      std::string message = what_ + " did not finish within " +
                            std::to_string(static_cast<long long>(deadline_ms_)) + " ms (watchdog)";
      lock.unlock();
      emitter_.send_fatal("timeout", message);
      std::fflush(nullptr);
      ::_exit(kExitTimeout);
    }
  }
}

}  // namespace kopt::worker
