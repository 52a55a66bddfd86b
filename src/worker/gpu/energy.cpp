#include "worker/gpu/energy.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kopt/elapsed.hpp"
#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/request_messages.hpp"
#include "worker/gpu/candidate_call.hpp"
#include "worker/gpu/cuda_errors.hpp"
#include "worker/gpu/cuda_handles.hpp"
#include "worker/gpu/energy_window.hpp"
#include "worker/gpu/nvml_library.hpp"
#include "worker/gpu/requests.hpp"

namespace kopt::worker {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Larger windows replay the same graph several times: graphs of many thousand nodes take long to build.
constexpr std::int64_t kMaxGraphCalls = 4096;
constexpr double kProbeSeconds = 0.02;  // the loop probe runs calls until it lasts this long
constexpr auto kSamplePeriod = std::chrono::milliseconds(100);

// Thrown when kopt cannot go on (NVML, the reference); becomes the reply's {"error": ...}.
struct EnergyError {
  ErrorCode code;
  std::string message;
  bool restart = false;  // the CUDA context is unusable (the reference hit a sticky error)
};

template <class T>
T unwrap_energy(Result<T> result, std::string const& context) {
  if (!result) throw EnergyError{result.error().code, context + result.error().message};
  return std::move(result).value();
}

// The NVML device that is the worker's CUDA device: by UUID, else by PCI bus id (never index 0 blindly).
NvmlDevice find_device(NvmlLibrary const& nvml, std::string const& uuid) {
  auto by_uuid = nvml.device_by_uuid(uuid);
  if (by_uuid) return *by_uuid;
  int device = 0;
  char bus_id[32] = {};
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetPCIBusId(bus_id, static_cast<int>(sizeof bus_id), device) == cudaSuccess) {
    if (auto by_bus = nvml.device_by_pci_bus_id(bus_id)) return *by_bus;
  }
  cudaGetLastError();
  throw EnergyError{ErrorCode::not_found, "energy: unavailable: NVML does not know this GPU (" + uuid +
                                              "): " + by_uuid.error().message};
}

// Power, clocks and temperature read every ~100 ms on a side thread while a window runs.
struct Samples {
  std::vector<double> watts;
  std::vector<double> sm_mhz;
  std::vector<double> memory_mhz;
  std::vector<double> temperature_c;
};

class Sampler {
 public:
  Sampler(NvmlLibrary const& nvml, NvmlDevice device, Samples& into)
      : nvml_(nvml), device_(device), into_(into), thread_([this] { loop(); }) {}
  ~Sampler() {
    stop_ = true;
    thread_.join();
  }
  Sampler(Sampler const&) = delete;
  Sampler& operator=(Sampler const&) = delete;

 private:
  void loop() {
    while (!stop_) {
      auto const next = Clock::now() + kSamplePeriod;
      // `into_` is read only after the sampler is joined.
      if (auto w = nvml_.power_watts(device_)) into_.watts.push_back(*w);
      if (auto c = nvml_.sm_clock_mhz(device_)) into_.sm_mhz.push_back(*c);
      if (auto c = nvml_.memory_clock_mhz(device_)) into_.memory_mhz.push_back(*c);
      if (auto t = nvml_.temperature_c(device_)) into_.temperature_c.push_back(*t);
      while (!stop_ && Clock::now() < next) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  NvmlLibrary const& nvml_;
  NvmlDevice device_;
  Samples& into_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// One measured subject (candidate or reference) and what was measured of it.
struct Subject {
  std::string name;
  Callable* callable = nullptr;
  ArgPack args;
  double deadline_ms = 60000.0;  // per call
  WindowPlan plan;
  double probe_call_us = 0.0;
  CudaGraphExec exec;  // the window's graph; null: a plain loop of calls
  std::string note;
  std::vector<EnergyWindow> windows;
  Samples samples;
  std::optional<double> temperature_start;
  std::optional<double> temperature_end;

  Subject() = default;
  Subject(Subject const&) = delete;
  Subject& operator=(Subject const&) = delete;
  ~Subject() = default;
};

// Runs `calls` calls back to back and waits for the device; the failure, if any.
std::optional<Verdict> run_loop(WorkerState& state, Subject& s, std::int64_t calls, double deadline_ms) {
  WatchdogScope guard(state.watchdog, deadline_ms, "the " + s.name + " (energy window)");
  for (std::int64_t i = 0; i < calls; ++i) {
    if (cudaError_t err = s.callable->call(s.args.data()); err != cudaSuccess) {
      cudaGetLastError();
      return from_cuda(classify_cuda_error(err, true), "launch failed: ");
    }
  }
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    return from_cuda(classify_cuda_error(err, false), "");
  return std::nullopt;
}

std::optional<Verdict> run_graph(WorkerState& state, Subject& s, std::int64_t replays, double deadline_ms) {
  WatchdogScope guard(state.watchdog, deadline_ms, "the " + s.name + " (energy window, CUDA graph)");
  for (std::int64_t r = 0; r < replays; ++r) {
    if (cudaError_t err = cudaGraphLaunch(s.exec.get(), cudaStreamPerThread); err != cudaSuccess) {
      cudaGetLastError();
      return from_cuda(classify_cuda_error(err, true), "graph launch failed: ");
    }
  }
  if (cudaError_t err = cudaDeviceSynchronize(); err != cudaSuccess)
    return from_cuda(classify_cuda_error(err, false), "");
  return std::nullopt;
}

// Captures `calls` calls of the subject into a graph; false (and a note) when it cannot be captured.
bool capture(Subject& s, std::int64_t calls) {
  if (cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    cudaGetLastError();
    s.note = "CUDA graph capture unavailable; the window is a plain loop of calls";
    return false;
  }
  cudaError_t call_error = cudaSuccess;
  for (std::int64_t k = 0; k < calls && call_error == cudaSuccess; ++k)
    call_error = s.callable->call(s.args.data());
  cudaGraph_t captured = nullptr;
  cudaError_t const end = cudaStreamEndCapture(cudaStreamPerThread, &captured);
  CudaGraph const graph(captured);
  cudaGraphExec_t exec = nullptr;
  cudaError_t const instantiate = (call_error == cudaSuccess && end == cudaSuccess && graph != nullptr)
                                      ? cudaGraphInstantiate(&exec, graph.get(), 0)
                                      : cudaErrorStreamCaptureInvalidated;
  if (instantiate != cudaSuccess) {
    cudaError_t const why = call_error != cudaSuccess ? call_error : end != cudaSuccess ? end : instantiate;
    cudaGetLastError();
    s.note =
        fmt::format("the {} could not be captured in a CUDA graph ({}); the window is a plain loop of calls",
                    s.name, cuda_error_text(why));
    return false;
  }
  s.exec.reset(exec);
  return true;
}

// Warm-up call, a timed loop probe, then (when it captures) a graph sized from the probe and timed by
// one replay, from which the window's replays are planned. The failure of a call, if any.
std::optional<Verdict> prepare_window(WorkerState& state, Subject& s, double window_s) {
  if (auto failure = call_candidate(state, *s.callable, s.args, s.deadline_ms)) return failure;
  std::int64_t calls = 1;
  double probe = 0.0;
  for (;;) {
    auto const t0 = Clock::now();
    if (auto failure = run_loop(state, s, calls, s.deadline_ms * static_cast<double>(calls))) return failure;
    probe = seconds_since(t0);
    if (probe >= kProbeSeconds || calls >= (std::int64_t{1} << 20)) break;
    calls *= 4;
  }
  s.probe_call_us = probe / static_cast<double>(calls) * 1e6;
  s.plan = plan_window(probe, calls, window_s, kMaxGraphCalls);
  if (!capture(s, s.plan.calls_per_graph)) {
    s.plan = plan_window(probe, calls, window_s, std::numeric_limits<std::int64_t>::max());
    return std::nullopt;
  }
  // One replay warms the graph up; the next one, timed, sizes the window (a graph has no launch gaps, so
  // its calls can be much shorter than the loop's).
  double const graph_deadline = s.deadline_ms * static_cast<double>(s.plan.calls_per_graph);
  if (auto failure = run_graph(state, s, 1, graph_deadline)) return failure;
  auto const t0 = Clock::now();
  if (auto failure = run_graph(state, s, 1, graph_deadline)) return failure;
  double const replay = seconds_since(t0);
  s.probe_call_us = replay / static_cast<double>(s.plan.calls_per_graph) * 1e6;
  s.plan.replays = replays_for_window(replay, window_s);
  return std::nullopt;
}

// The cooldown, then one window between two readings of the energy counter.
std::optional<Verdict> measure_window(WorkerState& state, NvmlLibrary const& nvml, NvmlDevice device,
                                      Subject& s, double window_s, double cooldown_s) {
  std::this_thread::sleep_for(std::chrono::duration<double>(cooldown_s));
  EnergyWindow window;
  window.idle_watts = unwrap_energy(nvml.power_watts(device), "energy: ");
  if (auto t = nvml.temperature_c(device); t && !s.temperature_start) s.temperature_start = *t;
  window.calls = s.plan.calls();
  // Generous: a window is planned at window_s, but clocks can drop under a power cap.
  double const deadline_ms = std::max(60000.0, window_s * 1000.0 * 20.0);
  std::uint64_t const before = unwrap_energy(nvml.energy_mj(device), "energy: ");
  auto const t0 = Clock::now();
  std::optional<Verdict> failure;
  {
    Sampler sampler(nvml, device, s.samples);
    failure = s.exec != nullptr ? run_graph(state, s, s.plan.replays, deadline_ms)
                                : run_loop(state, s, s.plan.calls(), deadline_ms);
    window.seconds = seconds_since(t0);
  }
  std::uint64_t const after = unwrap_energy(nvml.energy_mj(device), "energy: ");
  if (failure) return failure;
  if (auto t = nvml.temperature_c(device)) s.temperature_end = *t;
  auto joules = energy_delta_joules(before, after);
  if (!joules) {
    throw EnergyError{ErrorCode::worker_error,
                      "energy: NVML's energy counter went backwards during a window (driver reloaded?)"};
  }
  window.joules = *joules;
  s.windows.push_back(window);
  return std::nullopt;
}

SpreadFields spread_fields(std::vector<double> const& values) {
  Spread const s = spread_of(values);
  return SpreadFields{s.min, s.median, s.max};
}

EnergyFields measurement_fields(Subject const& s) {
  EnergyFields e;
  for (auto const& w : s.windows) {
    e.trials.push_back(
        EnergyWindowFields{w.joules, w.seconds, w.calls, joules_per_call(w), average_watts(w), w.idle_watts});
  }
  EnergySummary const summary = summarize_windows(s.windows);
  e.joules_per_call = {summary.joules_per_call.min, summary.joules_per_call.median,
                       summary.joules_per_call.max};
  e.avg_watts = summary.avg_watts;
  e.idle_watts = summary.idle_watts;
  e.seconds = summary.seconds;
  e.calls = s.plan.calls();
  e.graph = s.exec != nullptr;
  e.calls_per_graph = s.exec != nullptr ? s.plan.calls_per_graph : 0;
  e.replays = s.exec != nullptr ? s.plan.replays : 0;
  e.probe_call_us = s.probe_call_us;
  e.sampled_watts = spread_fields(s.samples.watts);
  e.sm_clock_mhz = spread_fields(s.samples.sm_mhz);
  e.memory_clock_mhz = spread_fields(s.samples.memory_mhz);
  e.temperature_start_c = s.temperature_start;
  e.temperature_end_c = s.temperature_end;
  e.samples = static_cast<std::int64_t>(s.samples.watts.size());
  e.note = s.note;
  return e;
}

double at_least(double value, char const* field, double minimum) {
  if (!(value >= minimum)) {
    throw EnergyError{
        ErrorCode::invalid_argument,
        fmt::format("energy: field '{}' must be a number >= {}, got {}", field, minimum, value)};
  }
  return value;
}

}  // namespace

json handle_energy(WorkerState& state, json const& body) {
  auto parsed = parse_energy_request(body);
  if (!parsed) {
    return to_json(ErrorReply{"energy", body.value("id", std::int64_t{0}), ErrorCode::internal_error,
                              parsed.error().message});
  }
  EnergyRequest const& request = *parsed;
  EnergyReply reply;
  reply.id = request.id;
  try {
    double const window_s = at_least(request.window_s, "window_s", 0.001);
    double const cooldown_s = at_least(request.cooldown_s, "cooldown_s", 0.0);
    int const trials = static_cast<int>(at_least(request.trials, "trials", 1.0));

    auto nvml = NvmlLibrary::load();
    if (!nvml) throw EnergyError{ErrorCode::not_found, "energy: unavailable: " + nvml.error().message};
    NvmlDevice const device = find_device(*nvml, state.device.uuid);
    (void)unwrap_energy(nvml->energy_mj(device), "energy: unavailable: ");

    std::unique_ptr<Callable> candidate_code;  // outlives the subject's graph, which calls into it
    Subject candidate;
    candidate.name = "candidate";
    candidate.deadline_ms = request.timeout.ceiling_ms;
    StagedCall staged = unwrap_energy(stage_call(state, request.selection, false), "");
    reply.size = staged.size->name;
    candidate.args = std::move(staged.args);
    auto finish_failed = [&](Verdict const& v) {
      reply.status = v.status;
      reply.message = v.message;
      reply.restart = v.sticky;
      return to_json(reply);
    };
    auto loaded = load_callable(request.candidate);
    if (!loaded) return finish_failed(Verdict{CandidateStatus::load_error, loaded.error().message});
    candidate_code = std::move(*loaded);
    candidate.callable = candidate_code.get();
    if (auto st = candidate.callable->prepare(staged.task->env_for(*staged.size)); !st)
      return finish_failed(Verdict{CandidateStatus::launch_error, st.error().message});
    state.emitter.progress("energy: sizing the candidate's window");
    if (auto failure = prepare_window(state, candidate, window_s)) return finish_failed(*failure);

    std::optional<Subject> reference;
    if (request.reference) {
      reference.emplace();
      reference->name = "reference";
      reference->deadline_ms = 600000.0;
      reference->callable = unwrap_energy(trusted_callable(state, *request.reference, "reference"), "");
      StagedCall ref_staged = unwrap_energy(stage_call(state, request.selection, true), "");
      reference->args = std::move(ref_staged.args);
      (void)unwrap_energy(reference->callable->prepare(staged.task->env_for(*staged.size)),
                          "the task's reference: ");
      state.emitter.progress("energy: sizing the reference's window");
      if (auto failure = prepare_window(state, *reference, window_s)) {
        throw EnergyError{ErrorCode::worker_error, "the task's reference failed: " + failure->message,
                          failure->sticky};
      }
    }

    // Trials alternate candidate and reference, so drift in temperature and clocks hits both alike.
    for (int t = 0; t < trials; ++t) {
      state.emitter.progress(fmt::format("energy: candidate, window {} of {}", t + 1, trials));
      if (auto failure = measure_window(state, *nvml, device, candidate, window_s, cooldown_s))
        return finish_failed(*failure);
      if (reference) {
        state.emitter.progress(fmt::format("energy: reference, window {} of {}", t + 1, trials));
        if (auto failure = measure_window(state, *nvml, device, *reference, window_s, cooldown_s))
          throw EnergyError{ErrorCode::worker_error, "the task's reference failed: " + failure->message,
                            failure->sticky};
      }
    }
    reply.candidate_energy = measurement_fields(candidate);
    if (reference) reply.reference_energy = measurement_fields(*reference);
    reply.sampling = "power, SM and memory clocks and temperature read every 100 ms on a side thread";
    return to_json(reply);
  } catch (EnergyError const& e) {
    return to_json(ErrorReply{"energy", request.id, e.code, e.message, e.restart});
  }
}

}  // namespace kopt::worker
