#include "kopt/worker/reply_messages.hpp"

#include "kopt/worker/protocol.hpp"
#include "worker/protocol/field_reader.hpp"
#include "worker/protocol/value_readers.hpp"

namespace kopt::worker {

using nlohmann::json;

namespace {

json reply_envelope(std::string const& op, std::int64_t id) {
  return json{{"reply", op}, {"id", id}};
}

template <class Reply>
Result<Reply> finish_reply(FieldReader& in, std::string const& error, std::string const& what, Reply reply) {
  in.finish();
  if (auto status = read_status(error, what); !status) return status.error();
  return reply;
}

json timing_json(TimingFields const& t) {
  json j{{"us", to_json(t.us)}, {"device_wide", t.device_wide}, {"warmup_ms", t.warmup_ms}};
  if (t.graph_us) j["graph_us"] = to_json(*t.graph_us);
  return j;
}

std::optional<TimingFields> read_check_timing(FieldReader& in, std::string const& name, std::string& error) {
  json const* j = in.optional_field(name);
  if (j == nullptr) return std::nullopt;
  return read_timing(*j, in.path(name), error, GraphField::may_be_absent);
}

VerdictFields read_verdict_object(FieldReader& in, std::string const& name, std::string& error) {
  VerdictFields v;
  if (json const* j = in.object(name)) {
    FieldReader verdict(*j, in.path(name), error);
    v.status = verdict.status("status");
    v.message = verdict.text("message");
    v.max_abs_err = verdict.number("max_abs_err");
    v.max_rel_err = verdict.number("max_rel_err");
    v.mismatches = verdict.count("mismatches");
    verdict.finish();
  }
  return v;
}

json spread_json(SpreadFields const& s) {
  return json{{"min", s.min}, {"median", s.median}, {"max", s.max}};
}

SpreadFields read_spread(FieldReader& in, std::string const& name, std::string& error) {
  SpreadFields s;
  if (json const* j = in.object(name)) {
    FieldReader spread(*j, in.path(name), error);
    s.min = spread.number("min");
    s.median = spread.number("median");
    s.max = spread.number("max");
    spread.finish();
  }
  return s;
}

EnergyWindowFields read_energy_window(json const& j, std::string const& where, std::string& error) {
  FieldReader in(j, where, error);
  EnergyWindowFields w;
  w.joules = in.number("joules");
  w.seconds = in.number("seconds");
  w.calls = in.integer("calls");
  w.joules_per_call = in.number("joules_per_call");
  w.avg_watts = in.number("avg_watts");
  w.idle_watts = in.number("idle_watts");
  in.finish();
  return w;
}

EnergyFields read_energy(json const& j, std::string const& where, std::string& error) {
  FieldReader in(j, where, error);
  EnergyFields e;
  if (json const* trials = in.array("trials")) {
    for (std::size_t i = 0; i < trials->size() && !in.failed(); ++i)
      e.trials.push_back(
          read_energy_window((*trials)[i], in.path("trials") + "[" + std::to_string(i) + "]", error));
  }
  e.joules_per_call = read_spread(in, "joules_per_call", error);
  e.avg_watts = in.number("avg_watts");
  e.idle_watts = in.number("idle_watts");
  e.seconds = in.number("seconds");
  e.calls = in.integer("calls");
  e.graph = in.boolean("graph");
  e.calls_per_graph = in.integer("calls_per_graph");
  e.replays = in.integer("replays");
  e.probe_call_us = in.number("probe_call_us");
  e.sampled_watts = read_spread(in, "sampled_watts", error);
  e.sm_clock_mhz = read_spread(in, "sm_clock_mhz", error);
  e.memory_clock_mhz = read_spread(in, "memory_clock_mhz", error);
  if (json const* t = in.object("temperature_c")) {
    FieldReader temperature(*t, in.path("temperature_c"), error);
    if (temperature.field("start") != nullptr) e.temperature_start_c = temperature.optional_number("start");
    if (temperature.field("end") != nullptr) e.temperature_end_c = temperature.optional_number("end");
    temperature.finish();
  }
  e.samples = in.integer("samples");
  e.note = in.text("note");
  in.finish();
  return e;
}

std::optional<EnergyFields> read_optional_energy(FieldReader& in, std::string const& name,
                                                 std::string& error) {
  json const* j = in.optional_field(name);
  if (j == nullptr) return std::nullopt;
  return read_energy(*j, in.path(name), error);
}

}  // namespace

ErrorCode error_code_from_name(std::string const& name) {
  for (auto code :
       {ErrorCode::invalid_argument, ErrorCode::invalid_spec, ErrorCode::io_error, ErrorCode::not_found,
        ErrorCode::no_gpu, ErrorCode::toolchain_error, ErrorCode::worker_error, ErrorCode::internal_error}) {
    if (name == to_string(code)) return code;
  }
  return ErrorCode::worker_error;
}

Error error_of_reply(json const& body) {
  auto error = parse_error_reply(body);
  if (!error) return error.error();
  return make_error(error->code, error->message);
}

std::optional<FatalReply> fatal_reply_in(json const& body) {
  if (!body.is_object() || !body.contains("fatal")) return std::nullopt;
  auto fatal = parse_fatal_reply(body);
  if (!fatal) return std::nullopt;
  return *fatal;
}

json to_json(HelloReply const& r) {
  json j = reply_envelope("hello", r.id);
  j["protocol"] = r.protocol;
  j["device"] = to_json(r.device);
  j["idle_sync_us"] = r.idle_sync_us;
  return j;
}

json to_json(ErrorReply const& r) {
  json j = reply_envelope(r.op, r.id);
  j["error"] = json{{"code", to_string(r.code)}, {"message", r.message}};
  if (r.restart) j["restart"] = true;
  return j;
}

json to_json(FatalReply const& r) {
  json j = reply_envelope(r.op, r.id);
  j["fatal"] = r.fatal;
  j["message"] = r.message;
  return j;
}

json to_json(ProgressEvent const& e) {
  return json{{"event", "progress"}, {"what", e.what}};
}

json to_json(CheckTaskSize const& s) {
  json j{{"size", s.size},
         {"verify_only", s.verify_only},
         {"deterministic", s.deterministic},
         {"reference_constant", s.reference_constant},
         {"note", s.note}};
  if (s.baseline_status) j["baseline_status"] = *s.baseline_status;
  if (s.reference) j["reference"] = timing_json(*s.reference);
  if (s.baseline) j["baseline"] = timing_json(*s.baseline);
  return j;
}

json to_json(CheckTaskReply const& r) {
  json j = reply_envelope("check_task", r.id);
  json sizes = json::array();
  for (auto const& s : r.sizes) sizes.push_back(to_json(s));
  j["sizes"] = std::move(sizes);
  return j;
}

json to_json(SingleTrialReply const& r) {
  json j = reply_envelope("single_trial", r.id);
  j["candidate"] = to_json(r.candidate);
  if (r.size) j["size"] = *r.size;
  if (r.restart) j["restart"] = true;
  return j;
}

json to_json(CalibrateReply const& r) {
  json j = reply_envelope("calibrate", r.id);
  j["dram_bytes_per_s"] = r.dram_bytes_per_s;
  j["fp32_flops_per_s"] = r.fp32_flops_per_s;
  j["bf16_tensor_flops_per_s"] = r.bf16_tensor_flops_per_s;
  j["fp16_tensor_flops_per_s"] = r.fp16_tensor_flops_per_s;
  j["notes"] = r.notes;
  j["wall_ms"] = r.wall_ms;
  return j;
}

json to_json(EnergyFields const& e) {
  json trials = json::array();
  for (auto const& w : e.trials) {
    trials.push_back({{"joules", w.joules},
                      {"seconds", w.seconds},
                      {"calls", w.calls},
                      {"joules_per_call", w.joules_per_call},
                      {"avg_watts", w.avg_watts},
                      {"idle_watts", w.idle_watts}});
  }
  auto const temperature = [](std::optional<double> const& t) { return t ? json(*t) : json(nullptr); };
  return json{{"trials", std::move(trials)},
              {"joules_per_call", spread_json(e.joules_per_call)},
              {"avg_watts", e.avg_watts},
              {"idle_watts", e.idle_watts},
              {"seconds", e.seconds},
              {"calls", e.calls},
              {"graph", e.graph},
              {"calls_per_graph", e.calls_per_graph},
              {"replays", e.replays},
              {"probe_call_us", e.probe_call_us},
              {"sampled_watts", spread_json(e.sampled_watts)},
              {"sm_clock_mhz", spread_json(e.sm_clock_mhz)},
              {"memory_clock_mhz", spread_json(e.memory_clock_mhz)},
              {"temperature_c",
               {{"start", temperature(e.temperature_start_c)}, {"end", temperature(e.temperature_end_c)}}},
              {"samples", e.samples},
              {"note", e.note}};
}

json to_json(EnergyReply const& r) {
  json j = reply_envelope("energy", r.id);
  j["size"] = r.size;
  json candidate{{"status", std::string(to_string(r.status))}, {"message", r.message}};
  if (r.candidate_energy) candidate["energy"] = to_json(*r.candidate_energy);
  j["candidate"] = std::move(candidate);
  if (r.reference_energy) j["reference"] = to_json(*r.reference_energy);
  if (r.sampling) j["sampling"] = *r.sampling;
  if (r.restart) j["restart"] = true;
  return j;
}

Result<HelloReply> parse_hello_reply(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  in.expect_text("reply", "hello");
  HelloReply r;
  r.id = in.integer("id");
  r.protocol = static_cast<int>(in.integer("protocol"));
  if (json const* device = in.object("device")) r.device = read_device_info(*device, "device", error);
  r.idle_sync_us = in.number("idle_sync_us");
  return finish_reply(in, error, "hello reply", r);
}

Result<ErrorReply> parse_error_reply(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  ErrorReply r;
  r.op = in.text("reply");
  r.id = in.integer("id");
  if (json const* e = in.object("error")) {
    FieldReader fields(*e, "error", error);
    r.code = error_code_from_name(fields.text("code"));
    r.message = fields.text("message");
    fields.finish();
  }
  r.restart = in.optional_flag("restart");
  return finish_reply(in, error, "error reply", r);
}

Result<FatalReply> parse_fatal_reply(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  FatalReply r;
  r.op = in.text("reply");
  r.id = in.integer("id");
  r.fatal = in.text("fatal");
  r.message = in.text("message");
  return finish_reply(in, error, "fatal reply", r);
}

Result<ProgressEvent> parse_progress_event(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  in.expect_text("event", "progress");
  ProgressEvent e;
  e.what = in.text("what");
  return finish_reply(in, error, "progress event", e);
}

Result<CheckTaskReply> parse_check_task_reply(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  in.expect_text("reply", "check_task");
  CheckTaskReply r;
  r.id = in.integer("id");
  if (json const* sizes = in.array("sizes")) {
    for (std::size_t i = 0; i < sizes->size() && !in.failed(); ++i) {
      FieldReader size((*sizes)[i], "sizes[" + std::to_string(i) + "]", error);
      CheckTaskSize s;
      s.size = size.text("size");
      s.verify_only = size.boolean("verify_only");
      s.deterministic = size.boolean("deterministic");
      s.reference_constant = size.boolean("reference_constant");
      s.baseline_status = size.optional_text("baseline_status");
      s.reference = read_check_timing(size, "reference", error);
      s.baseline = read_check_timing(size, "baseline", error);
      s.note = size.text("note");
      size.finish();
      r.sizes.push_back(std::move(s));
    }
  }
  return finish_reply(in, error, "check_task reply", std::move(r));
}

Result<SingleTrialReply> parse_single_trial_reply(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  in.expect_text("reply", "single_trial");
  SingleTrialReply r;
  r.id = in.integer("id");
  r.candidate = read_verdict_object(in, "candidate", error);
  r.size = in.optional_text("size");
  r.restart = in.optional_flag("restart");
  return finish_reply(in, error, "single_trial reply", std::move(r));
}

Result<CalibrateReply> parse_calibrate_reply(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  in.expect_text("reply", "calibrate");
  CalibrateReply r;
  r.id = in.integer("id");
  r.dram_bytes_per_s = in.number("dram_bytes_per_s");
  r.fp32_flops_per_s = in.number("fp32_flops_per_s");
  r.bf16_tensor_flops_per_s = in.number("bf16_tensor_flops_per_s");
  r.fp16_tensor_flops_per_s = in.number("fp16_tensor_flops_per_s");
  r.notes = in.texts("notes");
  r.wall_ms = in.number("wall_ms");
  return finish_reply(in, error, "calibrate reply", std::move(r));
}

Result<EnergyReply> parse_energy_reply(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  in.expect_text("reply", "energy");
  EnergyReply r;
  r.id = in.integer("id");
  r.size = in.text("size");
  if (json const* candidate = in.object("candidate")) {
    FieldReader verdict(*candidate, "candidate", error);
    r.status = verdict.status("status");
    r.message = verdict.text("message");
    r.candidate_energy = read_optional_energy(verdict, "energy", error);
    verdict.finish();
  }
  r.reference_energy = read_optional_energy(in, "reference", error);
  r.sampling = in.optional_text("sampling");
  r.restart = in.optional_flag("restart");
  return finish_reply(in, error, "energy reply", std::move(r));
}

}  // namespace kopt::worker
