#include "kopt/worker/verdict_messages.hpp"

#include <set>

#include "kopt/worker/protocol.hpp"

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

// Reads the fields of one JSON object strictly. The first problem is kept (with the field's path) and
// later reads return empty values; finish() adds fields that were never read as unknown.
class FieldReader {
 public:
  FieldReader(json const& object, std::string where, std::string& error)
      : object_(object), where_(std::move(where)), error_(error) {
    if (!object_.is_object()) fail(where_, "expected an object, got " + std::string(object_.type_name()));
  }

  std::string path(std::string const& name) const { return where_.empty() ? name : where_ + "." + name; }

  // The field, present (possibly null); nullptr after an error or when it is missing.
  json const* field(std::string const& name) {
    if (!error_.empty()) return nullptr;
    read_.insert(name);
    auto it = object_.find(name);
    if (it == object_.end()) {
      fail(path(name), "missing");
      return nullptr;
    }
    return &*it;
  }

  double number(std::string const& name) {
    json const* j = field(name);
    if (j == nullptr) return 0.0;
    if (!j->is_number()) {
      fail(path(name), "expected a number, got " + type_of(*j));
      return 0.0;
    }
    return j->get<double>();
  }

  std::uint64_t count(std::string const& name) {
    json const* j = field(name);
    if (j == nullptr) return 0;
    if (!j->is_number_unsigned() && !(j->is_number_integer() && j->get<std::int64_t>() >= 0)) {
      fail(path(name), "expected a non-negative integer, got " + j->dump());
      return 0;
    }
    return j->get<std::uint64_t>();
  }

  std::int64_t integer(std::string const& name) {
    json const* j = field(name);
    if (j == nullptr) return 0;
    if (!j->is_number_integer()) {
      fail(path(name), "expected an integer, got " + type_of(*j));
      return 0;
    }
    return j->get<std::int64_t>();
  }

  bool boolean(std::string const& name) {
    json const* j = field(name);
    if (j == nullptr) return false;
    if (!j->is_boolean()) {
      fail(path(name), "expected true or false, got " + type_of(*j));
      return false;
    }
    return j->get<bool>();
  }

  std::string text(std::string const& name) {
    json const* j = field(name);
    if (j == nullptr) return {};
    if (!j->is_string()) {
      fail(path(name), "expected a string, got " + type_of(*j));
      return std::string();
    }
    return j->get<std::string>();
  }

  std::optional<std::string> optional_text(std::string const& name) {
    json const* j = field(name);
    if (j == nullptr || j->is_null()) return std::nullopt;
    if (!j->is_string()) {
      fail(path(name), "expected a string or null, got " + type_of(*j));
      return std::nullopt;
    }
    return j->get<std::string>();
  }

  json const* array(std::string const& name) {
    json const* j = field(name);
    if (j == nullptr) return nullptr;
    if (!j->is_array()) {
      fail(path(name), "expected an array, got " + type_of(*j));
      return nullptr;
    }
    return j;
  }

  CandidateStatus status(std::string const& name) {
    std::string const value = text(name);
    if (!error_.empty()) return CandidateStatus::runtime_error;
    auto status = candidate_status_from_string(value);
    if (!status) {
      fail(path(name), "unknown status '" + value + "'");
      return CandidateStatus::runtime_error;
    }
    return *status;
  }

  void finish() {
    if (!error_.empty() || !object_.is_object()) return;
    for (auto const& item : object_.items()) {
      if (read_.count(item.key()) == 0) {
        fail(path(item.key()), "unknown field");
        return;
      }
    }
  }

  void fail(std::string const& where, std::string const& what) {
    if (error_.empty()) error_ = (where.empty() ? std::string("reply") : where) + ": " + what;
  }

 private:
  static std::string type_of(json const& j) { return j.type_name(); }

  json const& object_;
  std::string where_;
  std::string& error_;
  std::set<std::string> read_;
};

VerdictFields read_verdict(FieldReader& in) {
  VerdictFields v;
  v.status = in.status("status");
  v.message = in.text("message");
  v.max_abs_err = in.number("max_abs_err");
  v.max_rel_err = in.number("max_rel_err");
  v.mismatches = in.count("mismatches");
  return v;
}

SampleStats read_stats(json const& j, std::string const& where, std::string& error) {
  FieldReader in(j, where, error);
  SampleStats s;
  s.count = static_cast<int>(in.count("count"));
  s.median = in.number("median");
  s.min = in.number("min");
  s.max = in.number("max");
  s.mean = in.number("mean");
  s.q1 = in.number("q1");
  s.q3 = in.number("q3");
  in.finish();
  return s;
}

TimingFields read_timing(json const& j, std::string const& where, std::string& error) {
  FieldReader in(j, where, error);
  TimingFields t;
  if (json const* us = in.field("us")) t.us = read_stats(*us, in.path("us"), error);
  if (json const* graph = in.field("graph_us"); graph != nullptr && !graph->is_null())
    t.graph_us = read_stats(*graph, in.path("graph_us"), error);
  t.device_wide = in.boolean("device_wide");
  t.warmup_ms = in.number("warmup_ms");
  in.finish();
  return t;
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
  if (json const* seeds = in.array("seeds")) {
    for (std::size_t i = 0; i < seeds->size(); ++i) {
      json const& seed = (*seeds)[i];
      if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<std::int64_t>() >= 0)) {
        in.fail(in.path("seeds") + "[" + std::to_string(i) + "]", "expected a non-negative integer");
        break;
      }
      s.seeds.push_back(seed.get<std::uint64_t>());
    }
  }
  s.verdict = read_verdict(in);
  s.reference = read_optional_timing(in, "reference", error);
  s.candidate = read_optional_timing(in, "candidate", error);
  s.baseline = read_optional_timing(in, "baseline", error);
  s.activity = read_optional_object(in, "activity");
  s.reference_activity = read_optional_object(in, "reference_activity");
  s.activity_note = in.optional_text("activity_note");
  s.timing_note = in.optional_text("timing_note");
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
  if (!error.empty())
    return make_error(ErrorCode::worker_error, "malformed reply from the GPU worker: " + error);
  return t;
}

Result<EvaluateReply> parse_evaluate_reply(json const& body) {
  std::string error;
  FieldReader in(body, "", error);
  EvaluateReply reply;
  if (in.text("reply") != "evaluate" && error.empty()) in.fail("reply", "expected \"evaluate\"");
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
  if (!error.empty())
    return make_error(ErrorCode::worker_error, "malformed reply from the GPU worker: " + error);
  return reply;
}

}  // namespace kopt::worker
