#include "eval/energy_reply.hpp"

#include <fmt/format.h>

#include "kopt/worker/reply_messages.hpp"

namespace kopt {
namespace {

using nlohmann::json;

ValueSpread spread_from(worker::SpreadFields const& s) {
  return ValueSpread{s.min, s.median, s.max};
}

EnergyMeasurement measurement_from(worker::EnergyFields const& e) {
  EnergyMeasurement m;
  for (auto const& t : e.trials) {
    m.trials.push_back(
        EnergyTrial{t.joules, t.seconds, t.calls, t.joules_per_call, t.avg_watts, t.idle_watts});
  }
  m.joules_per_call = spread_from(e.joules_per_call);
  m.avg_watts = e.avg_watts;
  m.idle_watts = e.idle_watts;
  m.window_s = e.seconds;
  m.calls = e.calls;
  m.graph = e.graph;
  m.calls_per_graph = e.calls_per_graph;
  m.replays = e.replays;
  m.probe_call_us = e.probe_call_us;
  m.sampled_watts = spread_from(e.sampled_watts);
  m.sm_clock_mhz = spread_from(e.sm_clock_mhz);
  m.memory_clock_mhz = spread_from(e.memory_clock_mhz);
  m.temperature_start_c = e.temperature_start_c;
  m.temperature_end_c = e.temperature_end_c;
  m.note = e.note;
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
  if (body.contains("error")) return worker::error_of_reply(body);
  if (reply.worker_died && !body.contains("candidate")) {
    auto const fatal = worker::fatal_reply_in(body);
    bool const timeout = (fatal && fatal->fatal == "timeout") || reply.client_timeout;
    report.status = timeout ? CandidateStatus::timeout : CandidateStatus::runtime_error;
    report.message = fatal ? fatal->message : std::string("the GPU worker died while measuring energy");
    if (!timeout && !reply.stderr_tail.empty()) report.message += ": " + reply.stderr_tail;
    return Ok{};
  }
  auto measured = worker::parse_energy_reply(body);
  if (!measured) return measured.error();
  report.status = measured->status;
  report.message = measured->message;
  if (reply.worker_died && report.status == CandidateStatus::ok)
    report.status = CandidateStatus::runtime_error;
  report.size = measured->size;
  report.sampling = measured->sampling.value_or(std::string());
  if (measured->candidate_energy) report.candidate_energy = measurement_from(*measured->candidate_energy);
  if (measured->reference_energy) report.reference_energy = measurement_from(*measured->reference_energy);
  if (report.candidate_energy && report.reference_energy &&
      report.reference_energy->joules_per_call.median > 0.0) {
    report.ratio =
        report.candidate_energy->joules_per_call.median / report.reference_energy->joules_per_call.median;
  }
  return Ok{};
}

}  // namespace kopt
