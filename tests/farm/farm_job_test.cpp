// kopt.farm_job/1: an evaluation job survives encoding exactly, the same job has the same id (asked twice,
// it is one job) and a different one another, and a malformed payload is an error naming its field.
#include "kopt/farm_job.hpp"

#include <gtest/gtest.h>

#include "kopt/farm.hpp"

namespace kopt::farm {
namespace farm_job_test {

EvaluationJob sample() {
  EvaluationJob job;
  job.task_dir = "/tasks/softmax";
  job.candidate.name = "BLOCK=128;VEC=4";
  job.candidate.source = "#define BLOCK 128\n__global__ void k(float* \"quoted\") {}\n";
  job.candidate.flags = {"--use_fast_math", "-maxrregcount=64"};
  job.candidate.knobs = {{"BLOCK", "128"}, {"VEC", "4"}};
  job.candidate.mode = CandidateMode::launcher;
  job.tier = TimingTier::confirm;
  job.seed = 18446744073709551557ULL;
  return job;
}

TEST(FarmJob, RoundTripsExactlyAndTheSameJobHasTheSameId) {
  EvaluationJob const job = sample();
  auto decoded = decode_job(encode_job(job));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded->task_dir, job.task_dir);
  EXPECT_EQ(decoded->candidate.name, job.candidate.name);
  EXPECT_EQ(decoded->candidate.source, job.candidate.source);
  EXPECT_EQ(decoded->candidate.flags, job.candidate.flags);
  EXPECT_EQ(decoded->candidate.knobs, job.candidate.knobs);
  EXPECT_EQ(decoded->candidate.mode, CandidateMode::launcher);
  EXPECT_EQ(decoded->tier, TimingTier::confirm);
  EXPECT_EQ(decoded->seed, job.seed);
  EXPECT_EQ(to_queue_job(job).id, to_queue_job(*decoded).id);
  EXPECT_EQ(to_queue_job(job).id.size(), 64u);
  EvaluationJob other = job;
  other.seed = 1;
  EXPECT_NE(to_queue_job(job).id, to_queue_job(other).id) << "another seed is another evaluation";
  other = job;
  other.seed.reset();
  auto unseeded = decode_job(encode_job(other));
  ASSERT_TRUE(unseeded.ok());
  EXPECT_FALSE(unseeded->seed.has_value());
}

TEST(FarmJob, AMalformedPayloadNamesItsField) {
  auto says = [](std::string const& payload, std::string const& field) {
    auto r = decode_job(payload);
    ASSERT_FALSE(r.ok()) << payload;
    EXPECT_EQ(r.error().code, ErrorCode::invalid_spec);
    EXPECT_NE(r.error().message.find("'" + field + "'"), std::string::npos) << r.error().message;
  };
  says("not json", "(document)");
  says(R"({"schema":"kopt.farm_job/2"})", "schema");
  says(R"({"schema":"kopt.farm_job/1","task_dir":""})", "task_dir");
  says(R"({"schema":"kopt.farm_job/1","task_dir":"/t","candidate":{"name":"a"}})", "candidate.source");
  says(R"({"schema":"kopt.farm_job/1","task_dir":"/t","candidate":{"name":"a","source":"s","flags":[1]}})",
       "candidate.flags");
  says(R"({"schema":"kopt.farm_job/1","task_dir":"/t","candidate":{"name":"a","source":"s","mode":"x"}})",
       "candidate.mode");
  says(R"({"schema":"kopt.farm_job/1","task_dir":"/t","candidate":{"name":"a","source":"s"},"tier":"fast"})",
       "tier");
  says(R"({"schema":"kopt.farm_job/1","task_dir":"/t","candidate":{"name":"a","source":"s"},"tier":"screen",)"
       R"("seed":-1})",
       "seed");
}

}  // namespace farm_job_test
}  // namespace kopt::farm
