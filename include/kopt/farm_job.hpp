// An evaluation job of the farm (docs/distributed.md): one candidate of one task, on a timing tier, with
// the verification seed the coordinator chose. The payload of a farm::Job, as JSON (kopt.farm_job/1); its id
// is the SHA-256 of that text, so the same evaluation asked twice is one job.
//
// The task is named by its folder: every host of a farm sees the same task folders at the same paths (a
// shared checkout or file system); the candidate travels in the job, and the worker compiles it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "kopt/farm.hpp"
#include "kopt/measure.hpp"
#include "kopt/result.hpp"
#include "kopt/run_log.hpp"

namespace kopt::farm {

inline constexpr std::string_view kFarmJobSchema = "kopt.farm_job/1";

struct EvaluationJob {
  std::filesystem::path task_dir;
  CandidateInput candidate;
  TimingTier tier = TimingTier::screen;
  std::optional<std::uint64_t> seed;  // unset: the worker draws one
};

std::string encode_job(EvaluationJob const& job);
// Error invalid_spec naming the field that is missing or wrong.
Result<EvaluationJob> decode_job(std::string_view payload);
// The job as the queue takes it: its id (SHA-256 of the payload) and the payload.
Job to_queue_job(EvaluationJob const& job);

}  // namespace kopt::farm
