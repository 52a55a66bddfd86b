#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>

#include "kopt/worker/client.hpp"
#include "kopt/worker/confinement_paths.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/request_messages.hpp"

namespace kopt::worker {

using nlohmann::json;

std::vector<std::string> worker_environment() {
  static constexpr char const* kAllowedPrefixes[] = {"PATH=", "LD_LIBRARY_PATH=", "CUDA_",   "TMPDIR=",
                                                     "LANG=", "LC_ALL=",          "NVIDIA_", "KOPT_WORKER_",
                                                     "HOME="};
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    for (char const* prefix : kAllowedPrefixes) {
      if (std::strncmp(*e, prefix, std::strlen(prefix)) == 0) {
        env.emplace_back(*e);
        break;
      }
    }
  }
  return env;
}

Result<WorkerClient> WorkerClient::start(WorkerOptions options) {
  std::error_code ec;
  if (!std::filesystem::exists(options.worker_path, ec)) {
    return make_error(ErrorCode::not_found, "GPU worker executable not found at " +
                                                options.worker_path.string() +
                                                " (build target kopt-worker, or set KOPT_WORKER)");
  }
  ::signal(SIGPIPE, SIG_IGN);  // a dead worker must not take kopt down with it
  WorkerClient client;
  client.options_ = std::move(options);
  if (auto st = client.spawn_and_hello(); !st) return st.error();
  return client;
}

Status WorkerClient::spawn_and_hello() {
  std::vector<std::string> argv = options_.wrapper;
  argv.push_back(options_.worker_path.string());
  argv.emplace_back("--device");
  argv.push_back(std::to_string(options_.device));
  argv.insert(argv.end(), options_.extra_args.begin(), options_.extra_args.end());
  auto child = ChildProcess::spawn(argv, worker_environment());
  if (!child) return child.error();
  child_ = std::move(*child);
  if (auto st = child_.write_line(to_json(HelloRequest{}).dump()); !st) {
    ExitInfo exit = child_.kill_and_wait();  // it died before reading: its exit code says why
    if (exit.exited && exit.code == kExitNoGpu) {
      return make_error(ErrorCode::no_gpu, "no usable CUDA GPU: " + child_.stderr_tail());
    }
    return make_error(ErrorCode::worker_error,
                      "GPU worker did not start (" + exit.describe() + "): " + child_.stderr_tail());
  }
  for (;;) {
    auto line = child_.read_line(options_.start_timeout);
    if (!line || !line->has_value()) {
      ExitInfo exit = child_.kill_and_wait();
      std::string tail = child_.stderr_tail();
      if (exit.exited && exit.code == kExitNoGpu) {
        return make_error(ErrorCode::no_gpu,
                          "no usable CUDA GPU: " + (tail.empty() ? exit.describe() : tail));
      }
      return make_error(ErrorCode::worker_error, "GPU worker did not start (" + exit.describe() + ")" +
                                                     (tail.empty() ? "" : ": " + tail));
    }
    json msg = json::parse(**line, nullptr, false);
    if (msg.is_discarded() || !msg.is_object()) continue;  // e.g. a sanitizer banner
    if (msg.value("reply", "") != "hello") continue;
    if (msg.contains("error")) {
      child_.kill_and_wait();
      auto error = parse_error_reply(msg);
      if (!error) return error.error();
      return make_error(error->code == ErrorCode::no_gpu ? ErrorCode::no_gpu : ErrorCode::worker_error,
                        error->message);
    }
    // Both sides refuse a peer of another protocol version: the messages would be misread.
    if (msg.contains("protocol") && msg["protocol"].is_number_integer()) {
      if (auto version = check_protocol_version(msg["protocol"].get<int>(), "the GPU worker"); !version) {
        child_.kill_and_wait();
        return version.error();
      }
    }
    auto hello = parse_hello_reply(msg);
    if (!hello) {
      child_.kill_and_wait();
      return hello.error();
    }
    device_ = hello->device;
    return Ok{};
  }
}

Result<Reply> WorkerClient::request(json request, std::chrono::milliseconds idle_timeout,
                                    EventCallback const& on_event) {
  // The worker confines itself (Landlock) before its first request after hello, to the folders on its
  // command line and those that request names: a later request that names another folder (the next
  // task of `kopt bench`) goes to a fresh worker started with --allow-read for it. docs/security.md.
  if (add_allow_read_arguments(options_.extra_args, folders_read_by(request)) && next_id_ > 1 &&
      child_.running()) {
    shutdown();
  }
  if (!child_.running()) {
    if (auto st = spawn_and_hello(); !st) return st.error();
  }
  std::int64_t const id = next_id_++;
  request["id"] = id;
  std::string const op = request.value("op", "");
  // The protocol is JSON text: a path or name that is not valid UTF-8 (a file name is any bytes on Linux)
  // cannot travel unaltered, and altering it would send the worker elsewhere.
  std::string text;
  try {
    text = request.dump();
  } catch (nlohmann::json::type_error const& e) {
    return make_error(ErrorCode::invalid_argument,
                      "a path or name in this '" + op +
                          "' request is not valid UTF-8, so the GPU worker cannot be sent it; rename it (" +
                          e.what() + ")");
  }
  if (auto st = child_.write_line(text); !st) {
    Reply reply;
    reply.worker_died = true;
    reply.exit = child_.kill_and_wait();
    reply.stderr_tail = child_.stderr_tail();
    return reply;
  }
  Reply reply;
  for (;;) {
    auto line = child_.read_line(idle_timeout);
    if (!line) {  // EOF: the worker died (watchdog exit, sticky error, crash)
      reply.worker_died = true;
      reply.exit = child_.kill_and_wait();
      reply.stderr_tail = child_.stderr_tail();
      return reply;
    }
    if (!line->has_value()) {  // silent for too long: kill it
      reply.worker_died = true;
      reply.client_timeout = true;
      reply.exit = child_.kill_and_wait();
      reply.stderr_tail = child_.stderr_tail();
      return reply;
    }
    json msg = json::parse(**line, nullptr, false);
    if (msg.is_discarded() || !msg.is_object()) continue;
    if (msg.contains("event")) {
      if (on_event) on_event(msg);
      continue;
    }
    if (msg.value("reply", "") == op && msg.value("id", std::int64_t{-1}) == id) {
      reply.body = std::move(msg);
      if (reply.body.value("restart", false) || reply.body.contains("fatal")) {
        // The worker announced it is exiting (watchdog, sticky CUDA error): reap it now; the next
        // request starts a fresh one.
        reply.exit = child_.close_and_wait(std::chrono::milliseconds(10000));
        reply.stderr_tail = child_.stderr_tail();
        reply.worker_died = true;
      }
      return reply;
    }
  }
}

void WorkerClient::deny_read(std::vector<std::filesystem::path> const& folders) {
  if (add_folder_arguments(options_.extra_args, "--deny-read", folders))
    shutdown();  // the next request starts a worker with them
}

void WorkerClient::shutdown() {
  if (child_.running()) {
    (void)child_.write_line(to_json(ShutdownRequest{next_id_++}).dump());
    child_.close_and_wait(std::chrono::milliseconds(3000));
  }
}

}  // namespace kopt::worker
