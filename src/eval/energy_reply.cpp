#include "eval/energy_reply.hpp"

#include <fmt/format.h>

namespace kopt {
namespace {

using nlohmann::json;

ErrorCode error_code_from(std::string const& name) {
  for (auto code :
       {ErrorCode::invalid_argument, ErrorCode::invalid_spec, ErrorCode::io_error, ErrorCode::not_found,
        ErrorCode::no_gpu, ErrorCode::toolchain_error, ErrorCode::worker_error, ErrorCode::internal_error}) {
    if (name == to_string(code)) return code;
  }
  return ErrorCode::worker_error;
}

ValueSpread spread_from(json const& j) {
  if (!j.is_object()) return {};
  return ValueSpread{j.value("min", 0.0), j.value("median", 0.0), j.value("max", 0.0)};
}

std::optional<double> optional_number(json const& j, char const* field) {
  if (!j.is_object() || !j.contains(field) || !j[field].is_number()) return std::nullopt;
  return j[field].get<double>();
}

EnergyMeasurement measurement_from(json const& j) {
  EnergyMeasurement m;
  for (auto const& t : j.value("trials", json::array())) {
    m.trials.push_back(EnergyTrial{t.value("joules", 0.0), t.value("seconds", 0.0),
                                   t.value("calls", std::int64_t{0}), t.value("joules_per_call", 0.0),
                                   t.value("avg_watts", 0.0), t.value("idle_watts", 0.0)});
  }
  m.joules_per_call = spread_from(j.value("joules_per_call", json::object()));
  m.avg_watts = j.value("avg_watts", 0.0);
  m.idle_watts = j.value("idle_watts", 0.0);
  m.window_s = j.value("seconds", 0.0);
  m.calls = j.value("calls", std::int64_t{0});
  m.graph = j.value("graph", false);
  m.calls_per_graph = j.value("calls_per_graph", std::int64_t{0});
  m.replays = j.value("replays", std::int64_t{0});
  m.probe_call_us = j.value("probe_call_us", 0.0);
  m.sampled_watts = spread_from(j.value("sampled_watts", json::object()));
  m.sm_clock_mhz = spread_from(j.value("sm_clock_mhz", json::object()));
  m.memory_clock_mhz = spread_from(j.value("memory_clock_mhz", json::object()));
  json const temperature = j.value("temperature_c", json::object());
  m.temperature_start_c = optional_number(temperature, "start");
  m.temperature_end_c = optional_number(temperature, "end");
  m.note = j.value("note", std::string());
  return m;
}

}  // namespace

SizeCase const* energy_size(TaskSpec const& task, std::string const& name) {
  SizeCase const* chosen = nullptr;
  for (auto const& size : task.sizes) {
    if (name.empty() ? !size.verify_only : size.name == name) chosen = &size;
    if (!name.empty() && chosen != nullptr) break;
  }
  return chosen;
}

Status check_energy_options(EnergyOptions const& options) {
  if (!(options.window_s > 0.0)) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("energy option window_s must be > 0 seconds, got {}", options.window_s));
  }
  if (!(options.cooldown_s >= 0.0)) {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("energy option cooldown_s must be >= 0 seconds, got {}", options.cooldown_s));
  }
  if (options.trials < 1) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("energy option trials must be >= 1, got {}", options.trials));
  }
  return Ok{};
}

Status apply_energy_reply(worker::Reply const& reply, EnergyReport& report) {
  static json const kEmpty = json::object();
  json const& body = reply.body.is_object() ? reply.body : kEmpty;
  if (body.contains("error")) {
    json const& error = body["error"];
    return make_error(error_code_from(error.value("code", std::string("worker_error"))),
                      error.value("message", std::string("the worker could not measure energy")));
  }
  if (reply.worker_died && !body.contains("candidate")) {
    bool const timeout = body.value("fatal", std::string()) == "timeout" || reply.client_timeout;
    report.status = timeout ? CandidateStatus::timeout : CandidateStatus::runtime_error;
    report.message = body.value("message", std::string("the GPU worker died while measuring energy"));
    if (!timeout && !reply.stderr_tail.empty()) report.message += ": " + reply.stderr_tail;
    return Ok{};
  }
  if (!body.contains("candidate") || !body["candidate"].is_object()) {
    return make_error(ErrorCode::worker_error, "energy reply: field 'candidate' must be an object");
  }
  json const& candidate = body["candidate"];
  report.status = candidate_status_from_string(candidate.value("status", std::string("runtime_error")))
                      .value_or(CandidateStatus::runtime_error);
  report.message = candidate.value("message", std::string());
  if (reply.worker_died && report.status == CandidateStatus::ok)
    report.status = CandidateStatus::runtime_error;
  report.size = body.value("size", report.size);
  report.sampling = body.value("sampling", std::string());
  if (candidate.contains("energy") && candidate["energy"].is_object())
    report.candidate_energy = measurement_from(candidate["energy"]);
  if (body.contains("reference") && body["reference"].is_object())
    report.reference_energy = measurement_from(body["reference"]);
  if (report.candidate_energy && report.reference_energy &&
      report.reference_energy->joules_per_call.median > 0.0) {
    report.ratio =
        report.candidate_energy->joules_per_call.median / report.reference_energy->joules_per_call.median;
  }
  return Ok{};
}

}  // namespace kopt
