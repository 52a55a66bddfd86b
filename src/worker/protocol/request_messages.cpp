#include "kopt/worker/request_messages.hpp"

#include "worker/protocol/field_reader.hpp"
#include "worker/protocol/value_readers.hpp"

namespace kopt::worker {

using nlohmann::json;

namespace {

json envelope(char const* op, std::int64_t id) {
  return json{{"op", op}, {"id", id}};
}

void write_selection(json& j, TaskSelection const& s) {
  j["task_dir"] = s.task_dir;
  j["sizes"] = s.sizes;
  j["seed"] = s.seed;
}

TaskSelection read_selection(FieldReader& in) {
  TaskSelection s;
  s.task_dir = in.text("task_dir");
  s.sizes = in.texts("sizes");
  s.seed = in.count("seed");
  return s;
}

json scaling_json(DeadlineScaling const& t) {
  return json{{"factor", t.factor}, {"floor_ms", t.floor_ms}, {"ceiling_ms", t.ceiling_ms}};
}

DeadlineScaling read_scaling(FieldReader& in, std::string& error) {
  DeadlineScaling t;
  if (json const* j = in.object("timeout")) {
    FieldReader timeout(*j, "timeout", error);
    t.factor = timeout.number("factor");
    t.floor_ms = timeout.number("floor_ms");
    t.ceiling_ms = timeout.number("ceiling_ms");
    timeout.finish();
  }
  return t;
}

DeadlineCeiling read_ceiling(FieldReader& in, std::string& error) {
  DeadlineCeiling t;
  if (json const* j = in.object("timeout")) {
    FieldReader timeout(*j, "timeout", error);
    t.ceiling_ms = timeout.number("ceiling_ms");
    timeout.finish();
  }
  return t;
}

TimingTier read_tier(FieldReader& in) {
  std::string const text = in.text("tier");
  if (in.failed()) return TimingTier::confirm;
  auto tier = timing_tier_from_string(text);
  if (!tier) in.fail("tier", "expected \"screen\" or \"confirm\", got \"" + text + "\"");
  return tier.value_or(TimingTier::confirm);
}

ArtifactRef read_required_artifact(FieldReader& in, std::string const& name, std::string& error) {
  json const* j = in.field(name);
  return j == nullptr ? ArtifactRef{} : read_artifact(*j, name, error);
}

std::optional<ArtifactRef> read_optional_artifact(FieldReader& in, std::string const& name,
                                                  std::string& error) {
  json const* j = in.optional_field(name);
  if (j == nullptr) return std::nullopt;
  return read_artifact(*j, name, error);
}

json optional_artifact_json(std::optional<ArtifactRef> const& ref) {
  return ref ? to_json(*ref) : json(nullptr);
}

// The request's envelope ("op" is `op`, "id" an integer); the caller reads the rest and finishes.
template <class Request>
Request read_envelope(FieldReader& in, char const* op) {
  in.expect_text("op", op);
  Request request;
  request.id = in.integer("id");
  return request;
}

template <class Request>
Result<Request> finish_request(FieldReader& in, std::string const& error, char const* op, Request request) {
  in.finish();
  if (auto status = read_status(error, std::string(op) + " request"); !status) return status.error();
  return request;
}

json results_files_json(std::vector<ReferenceResultsFile> const& files) {
  json out = json::array();
  for (auto const& f : files) {
    json buffers = json::array();
    for (auto const& b : f.buffers)
      buffers.push_back(json{{"bytes", b.bytes}, {"scale", b.scale}, {"varies", b.varies}});
    out.push_back(json{{"size", f.size},
                       {"seed", f.seed},
                       {"trial", f.trial},
                       {"path", f.path},
                       {"key", f.key},
                       {"call_ms", f.call_ms},
                       {"buffers", buffers}});
  }
  return out;
}

std::vector<ReferenceResultsFile> read_results_files(FieldReader& in, std::string& error) {
  std::vector<ReferenceResultsFile> out;
  json const* list = in.optional_field("reference_results");
  if (list == nullptr) return out;
  if (!list->is_array()) {
    in.fail("reference_results", "expected an array");
    return out;
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    std::string const where = "reference_results[" + std::to_string(i) + "]";
    FieldReader file((*list)[i], where, error);
    ReferenceResultsFile f;
    f.size = file.text("size");
    f.seed = file.count("seed");
    f.trial = static_cast<int>(file.count("trial"));
    f.path = file.text("path");
    f.key = file.count("key");
    f.call_ms = file.number("call_ms");
    if (json const* buffers = file.array("buffers")) {
      for (std::size_t k = 0; k < buffers->size(); ++k) {
        FieldReader b((*buffers)[k], where + ".buffers[" + std::to_string(k) + "]", error);
        ResultBufferFacts facts;
        facts.bytes = b.count("bytes");
        facts.scale = b.number("scale");
        facts.varies = b.boolean("varies");
        b.finish();
        f.buffers.push_back(facts);
      }
    }
    file.finish();
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

json to_json(HelloRequest const& r) {
  json j = envelope("hello", r.id);
  j["protocol"] = r.protocol;
  return j;
}

json to_json(EvaluateRequest const& r) {
  json j = envelope("evaluate", r.id);
  write_selection(j, r.selection);
  j["tier"] = std::string(to_string(r.tier));
  j["time_baseline"] = r.time_baseline;
  j["timeout"] = scaling_json(r.timeout);
  j["reference"] = optional_artifact_json(r.reference);
  if (!r.reference_results.empty()) j["reference_results"] = results_files_json(r.reference_results);
  j["baseline"] = optional_artifact_json(r.baseline);
  j["candidate"] = to_json(r.candidate);
  return j;
}

json to_json(CheckTaskRequest const& r) {
  json j = envelope("check_task", r.id);
  write_selection(j, r.selection);
  j["tier"] = std::string(to_string(r.tier));
  j["timeout"] = scaling_json(r.timeout);
  j["reference"] = to_json(r.reference);
  j["baseline"] = optional_artifact_json(r.baseline);
  return j;
}

json to_json(SingleTrialRequest const& r) {
  json j = envelope("single_trial", r.id);
  write_selection(j, r.selection);
  j["timeout"] = json{{"ceiling_ms", r.timeout.ceiling_ms}};
  j["candidate"] = to_json(r.candidate);
  if (r.nvtx_range) j["nvtx_range"] = *r.nvtx_range;
  return j;
}

json to_json(CalibrateRequest const& r) {
  return envelope("calibrate", r.id);
}

json to_json(EnergyRequest const& r) {
  json j = envelope("energy", r.id);
  write_selection(j, r.selection);
  j["timeout"] = json{{"ceiling_ms", r.timeout.ceiling_ms}};
  j["window_s"] = r.window_s;
  j["cooldown_s"] = r.cooldown_s;
  j["trials"] = r.trials;
  j["candidate"] = to_json(r.candidate);
  j["reference"] = optional_artifact_json(r.reference);
  return j;
}

json to_json(ShutdownRequest const& r) {
  return envelope("shutdown", r.id);
}

Result<HelloRequest> parse_hello_request(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  auto request = read_envelope<HelloRequest>(in, "hello");
  request.protocol = static_cast<int>(in.integer("protocol"));
  return finish_request(in, error, "hello", request);
}

Result<EvaluateRequest> parse_evaluate_request(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  auto request = read_envelope<EvaluateRequest>(in, "evaluate");
  request.selection = read_selection(in);
  request.tier = read_tier(in);
  request.time_baseline = in.boolean("time_baseline");
  request.timeout = read_scaling(in, error);
  request.reference = read_optional_artifact(in, "reference", error);
  request.reference_results = read_results_files(in, error);
  if (!in.failed() && !request.reference && request.reference_results.empty())
    in.fail("reference", "missing");
  if (!in.failed() && request.reference && !request.reference_results.empty())
    in.fail("reference", "expected either a reference artifact or reference_results, exactly one of them");
  request.baseline = read_optional_artifact(in, "baseline", error);
  request.candidate = read_required_artifact(in, "candidate", error);
  return finish_request(in, error, "evaluate", std::move(request));
}

Result<CheckTaskRequest> parse_check_task_request(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  auto request = read_envelope<CheckTaskRequest>(in, "check_task");
  request.selection = read_selection(in);
  request.tier = read_tier(in);
  request.timeout = read_scaling(in, error);
  request.reference = read_required_artifact(in, "reference", error);
  request.baseline = read_optional_artifact(in, "baseline", error);
  return finish_request(in, error, "check_task", std::move(request));
}

Result<SingleTrialRequest> parse_single_trial_request(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  auto request = read_envelope<SingleTrialRequest>(in, "single_trial");
  request.selection = read_selection(in);
  request.timeout = read_ceiling(in, error);
  request.candidate = read_required_artifact(in, "candidate", error);
  request.nvtx_range = in.optional_text("nvtx_range");
  return finish_request(in, error, "single_trial", std::move(request));
}

Result<CalibrateRequest> parse_calibrate_request(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  auto request = read_envelope<CalibrateRequest>(in, "calibrate");
  return finish_request(in, error, "calibrate", request);
}

Result<EnergyRequest> parse_energy_request(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  auto request = read_envelope<EnergyRequest>(in, "energy");
  request.selection = read_selection(in);
  request.timeout = read_ceiling(in, error);
  request.window_s = in.number("window_s");
  request.cooldown_s = in.number("cooldown_s");
  request.trials = static_cast<int>(in.integer("trials"));
  request.candidate = read_required_artifact(in, "candidate", error);
  request.reference = read_optional_artifact(in, "reference", error);
  return finish_request(in, error, "energy", std::move(request));
}

Result<ShutdownRequest> parse_shutdown_request(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  auto request = read_envelope<ShutdownRequest>(in, "shutdown");
  return finish_request(in, error, "shutdown", request);
}

Status check_protocol_version(int theirs, char const* whose) {
  if (theirs == kProtocolVersion) return Ok{};
  return make_error(ErrorCode::worker_error, std::string(whose) + " speaks worker protocol " +
                                                 std::to_string(theirs) + ", this side speaks " +
                                                 std::to_string(kProtocolVersion));
}

}  // namespace kopt::worker
