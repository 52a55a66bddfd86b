// CompileQueue: a FIFO of compile requests served by the compiler's jobs threads, each distinct request
// compiled once and its outcome held until taken.
#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "compile/backends.hpp"
#include "kopt/compile.hpp"
#include "kopt/sha256.hpp"

namespace kopt {
namespace {

// Identifies a request by everything in it (the compiler's options are the queue's own).
std::string request_identity(CompileRequest const& request) {
  Sha256 hash;
  auto field = [&hash](std::string_view text) {
    hash.update(std::to_string(text.size()));
    hash.update(":");
    hash.update(text);
  };
  field(to_string(request.mode));
  field(request.source);
  field(request.origin.string());
  field(request.entry);
  for (auto const& dir : request.include_dirs) field("I" + dir.string());
  for (auto const& library : request.libraries) field("l" + library);
  for (auto const& flag : request.flags) field("f" + flag);
  return hash.hex_digest();
}

}  // namespace

struct CompileQueue::State {
  explicit State(Compiler c) : compiler(std::move(c)) {}

  struct Entry {
    CompileRequest request;
    std::promise<Result<CompileOutcome>> promise;
    std::shared_future<Result<CompileOutcome>> outcome;
    bool started = false;
  };

  Compiler compiler;
  std::mutex mutex;
  std::condition_variable ready;
  std::map<std::string, std::shared_ptr<Entry>> held;  // identity -> entry, until taken
  std::deque<std::shared_ptr<Entry>> queue;            // not started, in order
  bool stopping = false;

  // Called with the lock held.
  std::shared_ptr<Entry> add(std::string const& identity, CompileRequest const& request, bool first) {
    auto entry = std::make_shared<Entry>();
    entry->request = request;
    entry->outcome = entry->promise.get_future().share();
    held.emplace(identity, entry);
    if (first) {
      queue.push_front(entry);
    } else {
      queue.push_back(entry);
    }
    ready.notify_one();
    return entry;
  }

  void serve() {
    for (;;) {
      std::shared_ptr<Entry> entry;
      {
        std::unique_lock lock(mutex);
        ready.wait(lock, [this] { return stopping || !queue.empty(); });
        if (stopping) return;
        entry = std::move(queue.front());
        queue.pop_front();
        entry->started = true;
      }
      try {
        entry->promise.set_value(compiler.compile(entry->request));
      } catch (std::exception const& error) {
        entry->promise.set_value(make_error(
            ErrorCode::internal_error,
            fmt::format("compiling {} threw: {}", detail::origin_name(entry->request), error.what())));
      }
    }
  }
};

CompileQueue::CompileQueue(Compiler compiler) : state_(std::make_shared<State>(std::move(compiler))) {
  unsigned const jobs = std::max(1u, state_->compiler.options().jobs);
  threads_.reserve(jobs);
  for (unsigned t = 0; t < jobs; ++t) threads_.emplace_back([state = state_] { state->serve(); });
}

CompileQueue::~CompileQueue() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
    for (auto& entry : state_->queue) {
      entry->promise.set_value(make_error(ErrorCode::internal_error, "the compile queue was closed"));
    }
    state_->queue.clear();
  }
  state_->ready.notify_all();
  for (auto& thread : threads_) thread.join();
}

void CompileQueue::submit(CompileRequest const& request) {
  std::string const identity = request_identity(request);
  std::lock_guard lock(state_->mutex);
  if (!state_->held.contains(identity)) state_->add(identity, request, /*first=*/false);
}

Result<CompileOutcome> CompileQueue::take(CompileRequest const& request) {
  std::string const identity = request_identity(request);
  std::shared_future<Result<CompileOutcome>> outcome;
  {
    std::lock_guard lock(state_->mutex);
    auto it = state_->held.find(identity);
    if (it == state_->held.end()) {
      outcome = state_->add(identity, request, /*first=*/true)->outcome;
    } else {
      std::shared_ptr<State::Entry> entry = it->second;
      outcome = entry->outcome;
      if (!entry->started) {  // move it to the front: it is needed now
        std::erase(state_->queue, entry);
        state_->queue.push_front(entry);
      }
    }
    state_->held.erase(identity);
  }
  return outcome.get();
}

std::size_t CompileQueue::queued() const {
  std::lock_guard lock(state_->mutex);
  return state_->queue.size();
}

std::size_t CompileQueue::held() const {
  std::lock_guard lock(state_->mutex);
  return state_->held.size();
}

}  // namespace kopt
