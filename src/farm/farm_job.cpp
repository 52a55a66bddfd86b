// kopt.farm_job/1: an evaluation job's payload (kopt/farm_job.hpp).
#include "kopt/farm_job.hpp"

#include <nlohmann/json.hpp>

#include "kopt/compile.hpp"
#include "kopt/farm.hpp"
#include "kopt/sha256.hpp"

namespace kopt::farm {
namespace {

Error bad(std::string const& field, std::string const& expected) {
  return make_error(ErrorCode::invalid_spec,
                    std::string(kFarmJobSchema) + ": field '" + field + "': expected " + expected);
}

}  // namespace

std::string encode_job(EvaluationJob const& job) {
  nlohmann::json knobs = nlohmann::json::object();
  for (auto const& [name, value] : job.candidate.knobs) knobs[name] = value;
  nlohmann::json doc{{"schema", kFarmJobSchema},
                     {"task_dir", job.task_dir.string()},
                     {"candidate",
                      {{"name", job.candidate.name},
                       {"source", job.candidate.source},
                       {"flags", job.candidate.flags},
                       {"knobs", knobs},
                       {"mode", std::string(to_string(job.candidate.mode))}}},
                     {"tier", std::string(to_string(job.tier))},
                     {"seed", job.seed ? nlohmann::json(*job.seed) : nlohmann::json(nullptr)}};
  return doc.dump();
}

Result<EvaluationJob> decode_job(std::string_view payload) {
  auto doc = nlohmann::json::parse(payload, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return bad("(document)", "a JSON object");
  if (doc.value("schema", "") != kFarmJobSchema)
    return bad("schema", "\"" + std::string(kFarmJobSchema) + "\"");
  EvaluationJob job;
  if (!doc.contains("task_dir") || !doc["task_dir"].is_string() || doc["task_dir"].get<std::string>().empty())
    return bad("task_dir", "the task folder's path");
  job.task_dir = doc["task_dir"].get<std::string>();
  auto const& c = doc.contains("candidate") ? doc["candidate"] : nlohmann::json();
  if (!c.is_object()) return bad("candidate", "an object");
  if (!c.contains("name") || !c["name"].is_string()) return bad("candidate.name", "a string");
  if (!c.contains("source") || !c["source"].is_string()) return bad("candidate.source", "a string");
  job.candidate.name = c["name"].get<std::string>();
  job.candidate.source = c["source"].get<std::string>();
  if (c.contains("flags")) {
    if (!c["flags"].is_array()) return bad("candidate.flags", "an array of strings");
    for (auto const& f : c["flags"]) {
      if (!f.is_string()) return bad("candidate.flags", "an array of strings");
      job.candidate.flags.push_back(f.get<std::string>());
    }
  }
  if (c.contains("knobs")) {
    if (!c["knobs"].is_object()) return bad("candidate.knobs", "an object of strings");
    for (auto const& [name, value] : c["knobs"].items()) {
      if (!value.is_string()) return bad("candidate.knobs." + name, "a string");
      job.candidate.knobs.emplace(name, value.get<std::string>());
    }
  }
  std::string const mode = c.value("mode", "kernel");
  if (mode == "kernel") {
    job.candidate.mode = CandidateMode::kernel;
  } else if (mode == "launcher") {
    job.candidate.mode = CandidateMode::launcher;
  } else {
    return bad("candidate.mode", "\"kernel\" or \"launcher\"");
  }
  auto tier = timing_tier_from_string(doc.value("tier", ""));
  if (!tier) return bad("tier", "\"screen\" or \"confirm\"");
  job.tier = *tier;
  if (doc.contains("seed") && !doc["seed"].is_null()) {
    if (!doc["seed"].is_number_unsigned()) return bad("seed", "an unsigned 64-bit integer or null");
    job.seed = doc["seed"].get<std::uint64_t>();
  }
  return job;
}

Job to_queue_job(EvaluationJob const& job) {
  std::string payload = encode_job(job);
  return Job{sha256_hex(payload), std::move(payload)};
}

}  // namespace kopt::farm
