#include "kopt/worker/verdict_messages.hpp"

#include "kopt/worker/protocol.hpp"
#include "worker/protocol/field_reader.hpp"
#include "worker/protocol/value_readers.hpp"

namespace kopt::worker {

using nlohmann::json;

namespace {

json optional_json(std::optional<TimingFields> const& timing) {
  if (!timing) return nullptr;
  json j{{"us", to_json(timing->us)},
         {"graph_us", timing->graph_us ? to_json(*timing->graph_us) : json(nullptr)},
         {"device_wide", timing->device_wide},
         {"warmup_ms", timing->warmup_ms}};
  return j;
}

template <class T>
json optional_json(std::optional<T> const& value) {
  return value ? json(*value) : json(nullptr);
}

VerdictFields read_verdict(FieldReader& in) {
  VerdictFields v;
  v.status = in.status("status");
  v.message = in.text("message");
  v.max_abs_err = in.number("max_abs_err");
  v.max_rel_err = in.number("max_rel_err");
  v.mismatches = in.count("mismatches");
  return v;
}

std::optional<TimingFields> read_optional_timing(FieldReader& in, std::string const& name,
                                                 std::string& error) {
  json const* j = in.field(name);
  if (j == nullptr || j->is_null()) return std::nullopt;
  return read_timing(*j, in.path(name), error);
}

std::optional<json> read_optional_object(FieldReader& in, std::string const& name) {
  json const* j = in.field(name);
  if (j == nullptr || j->is_null()) return std::nullopt;
  if (!j->is_object()) {
    in.fail(in.path(name), "expected an object or null");
    return std::nullopt;
  }
  return *j;
}

SizeVerdict read_size(json const& j, std::string const& where, std::string& error) {
  FieldReader in(j, where, error);
  SizeVerdict s;
  s.size = in.text("size");
  s.verify_only = in.boolean("verify_only");
  s.seeds = in.counts("seeds");
  s.verdict = read_verdict(in);
  s.reference = read_optional_timing(in, "reference", error);
  s.candidate = read_optional_timing(in, "candidate", error);
  s.baseline = read_optional_timing(in, "baseline", error);
  s.activity = read_optional_object(in, "activity");
  s.reference_activity = read_optional_object(in, "reference_activity");
  s.activity_note = in.nullable_text("activity_note");
  s.timing_note = in.nullable_text("timing_note");
  in.finish();
  return s;
}

}  // namespace

json to_json(VerdictFields const& v) {
  return json{{"status", std::string(to_string(v.status))},
              {"message", v.message},
              {"max_abs_err", v.max_abs_err},
              {"max_rel_err", v.max_rel_err},
              {"mismatches", v.mismatches}};
}

json to_json(SizeVerdict const& s) {
  json entry{{"size", s.size}, {"verify_only", s.verify_only}, {"seeds", s.seeds}};
  entry.update(to_json(s.verdict));
  entry["reference"] = optional_json(s.reference);
  entry["candidate"] = optional_json(s.candidate);
  entry["baseline"] = optional_json(s.baseline);
  entry["activity"] = optional_json(s.activity);
  entry["reference_activity"] = optional_json(s.reference_activity);
  entry["activity_note"] = optional_json(s.activity_note);
  entry["timing_note"] = optional_json(s.timing_note);
  return entry;
}

json to_json(EvaluateReply const& reply) {
  json sizes = json::array();
  for (auto const& s : reply.sizes) sizes.push_back(to_json(s));
  return json{{"reply", "evaluate"},
              {"id", reply.id},
              {"load_ms", reply.load_ms},
              {"verify_ms", reply.verify_ms},
              {"time_ms", reply.time_ms},
              {"activity_ms", reply.activity_ms},
              {"candidate", to_json(reply.candidate)},
              {"sizes", std::move(sizes)},
              {"restart", reply.restart}};
}

Result<TimingFields> parse_timing(json const& body, std::string const& where) {
  std::string error;
  TimingFields t = read_timing(body, where, error);
  if (auto status = read_status(error, "reply from the GPU worker"); !status) return status.error();
  return t;
}

Result<EvaluateReply> parse_evaluate_reply(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  EvaluateReply reply;
  in.expect_text("reply", "evaluate");
  reply.id = in.integer("id");
  reply.load_ms = in.number("load_ms");
  reply.verify_ms = in.number("verify_ms");
  reply.time_ms = in.number("time_ms");
  reply.activity_ms = in.number("activity_ms");
  if (json const* candidate = in.field("candidate")) {
    FieldReader verdict(*candidate, "candidate", error);
    reply.candidate = read_verdict(verdict);
    verdict.finish();
  }
  if (json const* sizes = in.array("sizes")) {
    for (std::size_t i = 0; i < sizes->size() && error.empty(); ++i) {
      reply.sizes.push_back(read_size((*sizes)[i], "sizes[" + std::to_string(i) + "]", error));
    }
  }
  reply.restart = in.boolean("restart");
  in.finish();
  if (auto status = read_status(error, "reply from the GPU worker"); !status) return status.error();
  return reply;
}

}  // namespace kopt::worker
