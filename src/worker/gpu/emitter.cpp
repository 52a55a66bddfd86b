#include "worker/gpu/emitter.hpp"

#include <unistd.h>

#include "kopt/worker/reply_messages.hpp"

namespace kopt::worker {

namespace {
void write_all(int fd, std::string const& text) {
  std::size_t off = 0;
  while (off < text.size()) {
    auto n = ::write(fd, text.data() + off, text.size() - off);
    if (n <= 0) return;
    off += static_cast<std::size_t>(n);
  }
}
}  // namespace

void Emitter::send(nlohmann::json const& message) {
  std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::lock_guard lock(mutex_);
  write_all(fd_, line);
}

void Emitter::progress(std::string const& what) {
  send(to_json(ProgressEvent{what}));
}

void Emitter::set_request(std::string op, std::int64_t id) {
  std::lock_guard lock(mutex_);
  op_ = std::move(op);
  id_ = id;
}

void Emitter::send_fatal(std::string const& kind, std::string const& message) {
  nlohmann::json reply;
  {
    std::lock_guard lock(mutex_);
    reply = to_json(FatalReply{op_, id_, kind, message});
  }
  send(reply);
}

}  // namespace kopt::worker
