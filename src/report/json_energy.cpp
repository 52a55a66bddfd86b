// JSON for `kopt energy` reports (schema kopt.energy/1).
#include <fmt/format.h>

#include "kopt/eval_json.hpp"
#include "kopt/json_cursor.hpp"
#include "kopt/report.hpp"

namespace kopt {
namespace {

using json_doc::JsonCursor;
using json_doc::number_to_json;
using json_doc::optional_number_to_json;
using nlohmann::json;

json encode(ValueSpread const& s) {
  return {
      {"min", number_to_json(s.min)}, {"median", number_to_json(s.median)}, {"max", number_to_json(s.max)}};
}

ValueSpread decode_spread(JsonCursor const& c) {
  return ValueSpread{c.field("min").as_number(), c.field("median").as_number(), c.field("max").as_number()};
}

json encode(EnergyMeasurement const& m) {
  json trials = json::array();
  for (auto const& t : m.trials) {
    trials.push_back({{"joules", number_to_json(t.joules)},
                      {"seconds", number_to_json(t.seconds)},
                      {"calls", t.calls},
                      {"joules_per_call", number_to_json(t.joules_per_call)},
                      {"avg_watts", number_to_json(t.avg_watts)},
                      {"idle_watts", number_to_json(t.idle_watts)}});
  }
  return {{"trials", std::move(trials)},
          {"joules_per_call", encode(m.joules_per_call)},
          {"avg_watts", number_to_json(m.avg_watts)},
          {"idle_watts", number_to_json(m.idle_watts)},
          {"window_s", number_to_json(m.window_s)},
          {"calls", m.calls},
          {"graph", m.graph},
          {"calls_per_graph", m.calls_per_graph},
          {"replays", m.replays},
          {"probe_call_us", number_to_json(m.probe_call_us)},
          {"sampled_watts", encode(m.sampled_watts)},
          {"sm_clock_mhz", encode(m.sm_clock_mhz)},
          {"memory_clock_mhz", encode(m.memory_clock_mhz)},
          {"temperature_start_c", optional_number_to_json(m.temperature_start_c)},
          {"temperature_end_c", optional_number_to_json(m.temperature_end_c)},
          {"note", m.note}};
}

EnergyMeasurement decode_measurement(JsonCursor const& c) {
  EnergyMeasurement m;
  JsonCursor const trials = c.field("trials");
  for (std::size_t i = 0, n = trials.array_size(); i < n; ++i) {
    JsonCursor const t = trials.element(i);
    m.trials.push_back(EnergyTrial{t.field("joules").as_number(), t.field("seconds").as_number(),
                                   t.field("calls").as_int64(), t.field("joules_per_call").as_number(),
                                   t.field("avg_watts").as_number(), t.field("idle_watts").as_number()});
  }
  m.joules_per_call = decode_spread(c.field("joules_per_call"));
  m.avg_watts = c.field("avg_watts").as_number();
  m.idle_watts = c.field("idle_watts").as_number();
  m.window_s = c.field("window_s").as_number();
  m.calls = c.field("calls").as_int64();
  m.graph = c.field("graph").as_bool();
  m.calls_per_graph = c.field("calls_per_graph").as_int64();
  m.replays = c.field("replays").as_int64();
  m.probe_call_us = c.field("probe_call_us").as_number();
  m.sampled_watts = decode_spread(c.field("sampled_watts"));
  m.sm_clock_mhz = decode_spread(c.field("sm_clock_mhz"));
  m.memory_clock_mhz = decode_spread(c.field("memory_clock_mhz"));
  m.temperature_start_c = c.field("temperature_start_c").as_optional_number();
  m.temperature_end_c = c.field("temperature_end_c").as_optional_number();
  m.note = c.field("note").as_string();
  return m;
}

json encode(std::optional<EnergyMeasurement> const& m) {
  return m ? encode(*m) : json(nullptr);
}

std::optional<EnergyMeasurement> decode_optional_measurement(JsonCursor const& c) {
  if (c.is_null()) return std::nullopt;
  return decode_measurement(c);
}

}  // namespace

nlohmann::json to_json(EnergyReport const& r) {
  return {{"schema", kEnergySchema},
          {"task", r.task},
          {"candidate", r.candidate},
          {"size", r.size},
          {"device", json_doc::encode(r.device)},
          {"mode", std::string(to_string(r.mode))},
          {"status", std::string(to_string(r.status))},
          {"message", r.message},
          {"window_s", number_to_json(r.window_s)},
          {"cooldown_s", number_to_json(r.cooldown_s)},
          {"trials", r.trials},
          {"candidate_energy", encode(r.candidate_energy)},
          {"reference_energy", encode(r.reference_energy)},
          {"ratio", optional_number_to_json(r.ratio)},
          {"sampling", r.sampling},
          {"wall_ms", number_to_json(r.wall_ms)}};
}

Result<EnergyReport> energy_report_from_json(nlohmann::json const& json) {
  std::string error;
  JsonCursor document(json, "", &error);
  json_doc::expect_schema(document, kEnergySchema);
  EnergyReport r;
  r.task = document.field("task").as_string();
  r.candidate = document.field("candidate").as_string();
  r.size = document.field("size").as_string();
  r.device = json_doc::decode_device(document.field("device"));
  JsonCursor const mode = document.field("mode");
  std::string const mode_text = mode.as_string();
  if (mode_text == to_string(CandidateMode::launcher)) {
    r.mode = CandidateMode::launcher;
  } else if (mode_text != to_string(CandidateMode::kernel)) {
    mode.fail("\"kernel\" or \"launcher\"");
  }
  JsonCursor const status = document.field("status");
  if (auto parsed = candidate_status_from_string(status.as_string())) {
    r.status = *parsed;
  } else {
    status.fail("a candidate status (ok, compile_error, runtime_error, ...)");
  }
  r.message = document.field("message").as_string();
  r.window_s = document.field("window_s").as_number();
  r.cooldown_s = document.field("cooldown_s").as_number();
  r.trials = document.field("trials").as_int();
  r.candidate_energy = decode_optional_measurement(document.field("candidate_energy"));
  r.reference_energy = decode_optional_measurement(document.field("reference_energy"));
  r.ratio = document.field("ratio").as_optional_number();
  r.sampling = document.field("sampling").as_string();
  r.wall_ms = document.field("wall_ms").as_number();
  if (!error.empty())
    return make_error(ErrorCode::invalid_spec, fmt::format("{} report: {}", kEnergySchema, error));
  return r;
}

}  // namespace kopt
