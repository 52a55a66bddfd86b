// Thread-safe writer of protocol lines to stdout. The watchdog thread uses it to send a final
// "fatal" reply for the request in flight before the process exits.
#pragma once

#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace kopt::worker {

class Emitter {
 public:
  explicit Emitter(int fd) : fd_(fd) {}
  void send(nlohmann::json const& message);
  void progress(std::string const& what);
  // The request in flight, so a fatal reply can name it.
  void set_request(std::string op, std::int64_t id);
  // Writes {"reply": op, "id": id, "fatal": kind, "message": ...} and returns; the caller exits.
  void send_fatal(std::string const& kind, std::string const& message);

 private:
  int fd_;
  std::mutex mutex_;
  std::string op_;
  std::int64_t id_ = -1;
};

}  // namespace kopt::worker
