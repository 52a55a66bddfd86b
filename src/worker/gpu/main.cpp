// kopt-worker: owns one GPU, runs the task's reference and untrusted candidates on it, and answers
// kopt over stdin/stdout (include/kopt/worker/, docs/worker-protocol.md).
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/worker/confinement_paths.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/request_messages.hpp"
#include "worker/gpu/calibration.hpp"
#include "worker/gpu/cuda_handles.hpp"
#include "worker/gpu/device_query.hpp"
#include "worker/gpu/driver_api.hpp"
#include "worker/gpu/emitter.hpp"
#include "worker/gpu/energy.hpp"
#include "worker/gpu/requests.hpp"
#include "worker/gpu/sandbox.hpp"
#include "worker/gpu/violations.hpp"
#include "worker/gpu/watchdog.hpp"
#include "worker/gpu/worker_state.hpp"

namespace {

using nlohmann::json;
using namespace kopt;
using namespace kopt::worker;

struct Args {
  int device = 0;
  bool sandbox = true;
  bool calibrate = true;          // measure copy bandwidth and sync latency at start (off under sanitizers)
  bool network_namespace = true;  // false: already inside one (started through --netns-exec)
  bool confine = true;  // Landlock and seccomp before the first request (KOPT_WORKER_CONFINE=0: off)
  bool watch = true;    // name refused calls (KOPT_WORKER_WATCH=0: refuse them unnamed; for measuring it)
  bool require_isolation = false;                 // --require-isolation, KOPT_WORKER_REQUIRE_ISOLATION=1
  std::vector<std::filesystem::path> allow_read;  // --allow-read DIR, KOPT_WORKER_ALLOW_READ=DIR:DIR
  std::vector<std::filesystem::path> deny_read;  // --deny-read DIR: the reference's runtime (docs/pytorch.md)
};

bool env_is(char const* name, char const* value) {
  char const* set = std::getenv(name);
  return set != nullptr && std::string(set) == value;
}

// `kopt-worker --netns-exec -- COMMAND...`: enters a new network namespace (loopback up) and execs
// COMMAND in it. kopt uses it to run compute-sanitizer and the worker it watches inside one
// namespace, so the two can talk over local sockets while the candidate still has no network.
[[noreturn]] void netns_exec(int argc, char** argv) {
  int first = 1;
  while (first < argc && std::string(argv[first]) != "--") ++first;
  if (first + 1 >= argc) {
    std::fputs("kopt-worker --netns-exec: expected -- COMMAND...\n", stderr);
    std::exit(2);  // NOLINT(concurrency-mt-unsafe): single-threaded, about to exec
  }
  std::string note;
  if (kopt::worker::enter_network_namespace(note)) {
    // Tells the worker inside that it is isolated (single-threaded, about to exec).
    ::setenv("KOPT_WORKER_NETNS", "1", 1);  // NOLINT(concurrency-mt-unsafe)
  } else {
    std::fprintf(stderr, "kopt-worker: %s\n", note.c_str());
  }
  ::execv(argv[first + 1], argv + first + 1);
  std::perror("kopt-worker --netns-exec: exec");
  std::exit(127);  // NOLINT(concurrency-mt-unsafe): single-threaded
}

// --require-isolation with a measure missing: the reply says which (kopt maps it to exit code 3).
void refuse_without_isolation(Emitter& emitter, Sandbox const& sandbox, std::string const& op,
                              std::int64_t id, std::string const& what) {
  emitter.send(
      to_json(ErrorReply{op, id, ErrorCode::worker_error,
                         "isolation is required (--require-isolation) but " + what + sandbox.isolation()}));
  sandbox.leave();
}

Args parse_args(int argc, char** argv) {
  Args args;
  args.confine = !env_is("KOPT_WORKER_CONFINE", "0");
  args.watch = !env_is("KOPT_WORKER_WATCH", "0");
  args.require_isolation = env_is("KOPT_WORKER_REQUIRE_ISOLATION", "1");
  if (char const* list = std::getenv("KOPT_WORKER_ALLOW_READ"); list != nullptr) {
    for (std::string rest = list; !rest.empty();) {
      std::size_t const colon = rest.find(':');
      if (colon != 0) args.allow_read.emplace_back(rest.substr(0, colon));
      rest = colon == std::string::npos ? std::string() : rest.substr(colon + 1);
    }
  }
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) {
      std::string_view const value(argv[++i]);
      auto const [end, error] = std::from_chars(value.data(), value.data() + value.size(), args.device);
      if (error != std::errc() || end != value.data() + value.size() || args.device < 0) {
        std::fprintf(stderr, "kopt-worker: --device %s: expected a CUDA device index (0, 1, ...)\n", argv[i]);
        std::exit(2);  // NOLINT(concurrency-mt-unsafe): parsing the command line, before any thread
      }
    } else if (a == "--no-calibration") {
      args.calibrate = false;
    } else if (a == "--no-netns") {
      args.network_namespace = false;
    } else if (a == "--no-sandbox") {
      args.sandbox = false;
    } else if (a == "--allow-read" && i + 1 < argc) {
      args.allow_read.emplace_back(argv[++i]);
    } else if (a == "--deny-read" && i + 1 < argc) {
      args.deny_read.emplace_back(argv[++i]);
    } else if (a == "--require-isolation") {
      args.require_isolation = true;
    } else if (a == "--help") {
      std::puts(
          "kopt-worker: the GPU side of kopt. Started by kopt; speaks JSON lines on stdin/stdout.\n"
          "  --device N     CUDA device index (default 0)\n"
          "  --no-sandbox   do not enter a network namespace, set resource limits or confine itself\n"
          "  --allow-read DIR  also readable once confined (kopt adds task folders and the compile cache)\n"
          "  --deny-read DIR   never readable, even beneath a readable folder: the system-call watch "
          "refuses\n"
          "                    and reports it (kopt adds PyTorch's package for a PyTorch task)\n"
          "  --require-isolation  refuse to start when a containment measure is missing\n"
          "  --no-calibration  skip start-up measurements (used under compute-sanitizer)");
      std::exit(0);  // NOLINT(concurrency-mt-unsafe): --help, before any thread
    }
  }
  return args;
}

// The hello exchange: checks kopt's protocol version and the isolation asked for, finds the device and
// measures what timing needs. Returns the exit code when the worker must stop instead of serving.
std::optional<int> answer_hello(Args const& args, Sandbox& sandbox, Emitter& emitter, WorkerState& state,
                                json const& request, std::int64_t id) {
  std::string const op = "hello";
  // Both sides refuse a peer of another protocol version: the messages would be misread.
  auto hello = parse_hello_request(request);
  Status const version = hello ? check_protocol_version(hello->protocol, "kopt") : Status(hello.error());
  if (!version) {
    emitter.send(to_json(ErrorReply{op, id, ErrorCode::internal_error, version.error().message}));
    sandbox.leave();
    return kExitProtocol;
  }
  if (args.require_isolation && !sandbox.complete()) {
    refuse_without_isolation(emitter, sandbox, op, id, "this worker has ");
    return 1;
  }
  auto info = query_device(args.device, args.calibrate);
  if (!info) {
    emitter.send(to_json(ErrorReply{op, id, info.error().code, info.error().message}));
    sandbox.leave();
    return info.error().code == ErrorCode::no_gpu ? kExitNoGpu : 1;
  }
  if (auto st = load_driver_api(); !st) {
    emitter.send(to_json(ErrorReply{op, id, ErrorCode::no_gpu, st.error().message}));
    return kExitNoGpu;
  }
  state.device = *info;
  state.device.isolation = sandbox.isolation();
  state.idle_sync_us = args.calibrate ? idle_sync_latency_us() : 0.0;
  state.flush_bytes = static_cast<std::size_t>(std::max<std::int64_t>(2 * state.device.l2_bytes, 8 << 20));
  if (args.calibrate) state.flush_buffer = allocate_device(state.flush_bytes);
  emitter.send(to_json(HelloReply{id, kProtocolVersion, state.device, state.idle_sync_us}));
  return std::nullopt;
}

// One request after hello, by its op; a bug in the worker becomes an internal_error reply instead of
// a silent death.
json run_request(WorkerState& state, std::string const& op, json const& request, std::int64_t id) {
  try {
    if (op == "evaluate") return handle_evaluate(state, request);
    if (op == "check_task") return handle_check_task(state, request);
    if (op == "single_trial") return handle_single_trial(state, request);
    if (op == "calibrate") return handle_calibrate(state, request);
    if (op == "energy") return handle_energy(state, request);
    return to_json(ErrorReply{op, id, ErrorCode::invalid_argument, "unknown op '" + op + "'"});
  } catch (std::exception const& e) {
    return to_json(ErrorReply{op, id, ErrorCode::internal_error, std::string("kopt-worker: ") + e.what()});
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--netns-exec") netns_exec(argc, argv);
  Args const args = parse_args(argc, argv);
  // Nothing but protocol lines may reach stdout: candidates that print are redirected to stderr.
  int const protocol_fd = ::dup(STDOUT_FILENO);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  ::dup2(protocol_fd, 1000);
  ::close(protocol_fd);

  Sandbox sandbox = Sandbox::enter(SandboxOptions{.enable = args.sandbox,
                                                  .network_namespace = args.network_namespace,
                                                  .confine = args.confine,
                                                  .watch = args.watch,
                                                  .read = args.allow_read,
                                                  .deny = args.deny_read});
  Emitter emitter(1000);
  Watchdog watchdog(emitter);
  WorkerState state(emitter, watchdog);

  std::string line;
  bool started = false;
  while (std::getline(std::cin, line)) {
    json request = json::parse(line, nullptr, false);
    if (request.is_discarded() || !request.is_object() || !request.contains("op") ||
        !request["op"].is_string()) {
      emitter.send(to_json(ErrorReply{"error", -1, ErrorCode::internal_error, "malformed request line"}));
      continue;
    }
    std::string const op = request["op"].get<std::string>();
    std::int64_t const id =
        request.contains("id") && request["id"].is_number_integer() ? request["id"].get<std::int64_t>() : 0;
    emitter.set_request(op, id);
    if (op == "hello") {
      if (auto exit_code = answer_hello(args, sandbox, emitter, state, request, id)) return *exit_code;
      started = true;
      continue;
    }
    if (op == "shutdown") break;
    if (!started) {
      emitter.send(to_json(ErrorReply{op, id, ErrorCode::internal_error, "hello first"}));
      continue;
    }
    // Landlock and seccomp before anything that may load a candidate: the rules take the folders this
    // first request names (kopt starts a fresh worker for a request that names others).
    if (!sandbox.confined()) {
      sandbox.confine(folders_read_by(request));
      if (!sandbox.complete())
        std::fprintf(stderr, "kopt-worker: isolation: %s\n", sandbox.isolation().c_str());
      if (args.require_isolation && !sandbox.complete()) {
        refuse_without_isolation(emitter, sandbox, op, id, "confining failed: ");
        return 1;
      }
    }
    json reply = run_request(state, op, request, id);
    // The watch's reports for whatever ran during this request: the candidate's verdict, or a note
    // (a request without a candidate: the task's reference or the worker itself was refused).
    if (auto const violations = sandbox.take_violations(); !violations.empty()) {
      if (!mark_sandbox_violation(reply, violations)) {
        std::fprintf(stderr, "kopt-worker: refused during %s: %s\n", op.c_str(),
                     summarize_violations(violations).c_str());
      }
    }
    emitter.send(reply);
    if (reply.value("restart", false)) {
      // The CUDA context is unusable; exiting releases it. kopt starts a fresh worker.
      std::fflush(nullptr);
      sandbox.leave();
      ::_exit(kExitStickyError);
    }
  }
  sandbox.leave();
  return 0;
}
