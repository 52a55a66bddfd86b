// apply_reply / apply_check_reply: worker replies and worker deaths become candidate statuses.
#include "eval/reply_mapping.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <cstring>

#include "eval_test_support.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/verdict_messages.hpp"

namespace kopt {
namespace reply_mapping_test {

using eval_test::stats;
using eval_test::test_device;
using eval_test::vector_add_task;
using nlohmann::json;

worker::TimingFields timing(double median_us, double warmup_ms, bool device_wide = false) {
  worker::TimingFields t;
  t.us = worker::sample_stats_from_json(stats(median_us));
  t.warmup_ms = warmup_ms;
  t.device_wide = device_wide;
  return t;
}

json timed_size(std::string const& name, double reference_us, double candidate_us) {
  worker::SizeVerdict s;
  s.size = name;
  s.seeds = {11, 12, 13, 14};
  s.verdict.max_rel_err = 1e-7;
  s.reference = timing(reference_us, 25.0);
  s.candidate = timing(candidate_us, 26.0, true);
  return worker::to_json(s);
}

// A complete reply, as the worker writes it (every field present).
json evaluate_body() {
  worker::EvaluateReply reply;
  reply.id = 1;
  reply.load_ms = 1.5;
  reply.verify_ms = 20.0;
  reply.time_ms = 300.0;
  worker::SizeVerdict odd;
  odd.size = "odd";
  odd.verify_only = true;
  odd.seeds = {1, 2, 3};
  reply.sizes.push_back(odd);
  json body = worker::to_json(reply);
  body["sizes"].push_back(timed_size("medium", 40.0, 20.0));
  body["sizes"].push_back(timed_size("large", 2000.0, 250.0));
  return body;
}

worker::Reply reply_with(json body) {
  worker::Reply reply;
  reply.body = std::move(body);
  return reply;
}

TEST(ApplyReply, NormalBodyGivesStatusesTimingsAndGeomean) {
  TaskSpec const task = vector_add_task();
  CandidateReport report;
  auto status = apply_reply(task, test_device(), reply_with(evaluate_body()), report);
  ASSERT_TRUE(status) << status.error().message;
  EXPECT_EQ(report.status, CandidateStatus::ok);
  EXPECT_DOUBLE_EQ(report.phases.load_ms, 1.5);
  EXPECT_DOUBLE_EQ(report.phases.verify_ms, 20.0);
  EXPECT_DOUBLE_EQ(report.phases.time_ms, 300.0);
  ASSERT_EQ(report.sizes.size(), 3u);

  SizeResult const& odd = report.sizes[0];
  EXPECT_EQ(odd.size, "odd");
  EXPECT_TRUE(odd.verify_only);
  EXPECT_EQ(odd.seeds, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_FALSE(odd.candidate);
  EXPECT_FALSE(odd.speedup);

  SizeResult const& medium = report.sizes[1];
  EXPECT_EQ(medium.status, CandidateStatus::ok);
  ASSERT_TRUE(medium.reference && medium.candidate);
  EXPECT_DOUBLE_EQ(medium.reference->us.median, 40.0);
  EXPECT_DOUBLE_EQ(medium.candidate->us.median, 20.0);
  EXPECT_DOUBLE_EQ(medium.candidate->warmup_ms, 26.0);
  EXPECT_TRUE(medium.candidate->device_wide);
  EXPECT_FALSE(medium.candidate->graph_us);
  EXPECT_DOUBLE_EQ(medium.max_rel_err, 1e-7);
  ASSERT_TRUE(medium.speedup);
  EXPECT_DOUBLE_EQ(*medium.speedup, 2.0);
  ASSERT_TRUE(medium.bytes);
  EXPECT_DOUBLE_EQ(*medium.bytes, 12.0 * 1048576.0);

  SizeResult const& large = report.sizes[2];
  ASSERT_TRUE(large.speedup);
  EXPECT_DOUBLE_EQ(*large.speedup, 8.0);
  EXPECT_TRUE(large.achieved_gbps);
  EXPECT_TRUE(large.pct_of_sol);

  ASSERT_TRUE(report.geomean_speedup);
  EXPECT_NEAR(*report.geomean_speedup, 4.0, 1e-12);
}

TEST(ApplyReply, GraphTimingsAreRead) {
  TaskSpec const task = vector_add_task();
  json body = evaluate_body();
  body["sizes"][1]["candidate"]["graph_us"] = stats(2.0);
  body["sizes"][1]["reference"]["graph_us"] = stats(4.0);
  body["sizes"][1]["candidate"]["us"] = stats(5.0);
  body["sizes"][1]["reference"]["us"] = stats(9.0);
  CandidateReport report;
  ASSERT_TRUE(apply_reply(task, test_device(), reply_with(body), report));
  ASSERT_TRUE(report.sizes[1].candidate && report.sizes[1].candidate->graph_us);
  EXPECT_DOUBLE_EQ(report.sizes[1].candidate->graph_us->median, 2.0);
  ASSERT_TRUE(report.sizes[1].speedup);
  EXPECT_DOUBLE_EQ(*report.sizes[1].speedup, 2.0);  // graph medians 4 / 2 (the candidate is under 10 us)
}

TEST(ApplyReply, FailedCandidateKeepsItsStatusAndHasNoGeomean) {
  TaskSpec const task = vector_add_task();
  json body = evaluate_body();
  body["candidate"]["status"] = "wrong_output";
  body["candidate"]["message"] = "size 'odd': 12 of 1000003 elements differ";
  body["sizes"][0]["status"] = "wrong_output";
  body["sizes"][0]["mismatches"] = 12;
  CandidateReport report;
  ASSERT_TRUE(apply_reply(task, test_device(), reply_with(body), report));
  EXPECT_EQ(report.status, CandidateStatus::wrong_output);
  EXPECT_EQ(report.message, "size 'odd': 12 of 1000003 elements differ");
  EXPECT_EQ(report.sizes[0].status, CandidateStatus::wrong_output);
  EXPECT_EQ(report.sizes[0].mismatches, 12u);
  EXPECT_FALSE(report.geomean_speedup);
}

TEST(ApplyReply, ImplausiblyFastSizeMakesTheCandidateImplausiblyFast) {
  TaskSpec const task = vector_add_task();
  json body = evaluate_body();
  body["sizes"][2] = timed_size("large", 2000.0, 50.0);  // bound ~201 us
  CandidateReport report;
  ASSERT_TRUE(apply_reply(task, test_device(), reply_with(body), report));
  EXPECT_EQ(report.status, CandidateStatus::implausibly_fast);
  EXPECT_EQ(report.sizes[2].status, CandidateStatus::implausibly_fast);
  EXPECT_NE(report.message.find("size 'large'"), std::string::npos) << report.message;
  EXPECT_FALSE(report.geomean_speedup);
}

TEST(ApplyReply, UnknownStatusStringRejectsTheCandidateAndDiscardsTheWorker) {
  TaskSpec const task = vector_add_task();
  json body = evaluate_body();
  body["candidate"]["status"] = "exploded";
  CandidateReport report;
  auto after = apply_reply(task, test_device(), reply_with(body), report);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(*after, WorkerAfterReply::discard);
  EXPECT_EQ(report.status, CandidateStatus::runtime_error);
  EXPECT_NE(report.message.find("candidate.status: unknown status 'exploded'"), std::string::npos)
      << report.message;
}

// Fail closed: a verdict with any field missing is a rejection that names the field, never a pass.
// (Before, a size entry without "status" read as ok.)
TEST(ApplyReply, EveryMissingVerdictFieldRejectsTheCandidate) {
  TaskSpec const task = vector_add_task();
  json const complete = evaluate_body();
  std::vector<std::pair<json::json_pointer, std::string>> fields;
  for (auto const& [key, value] : complete.items()) fields.emplace_back(json::json_pointer("/" + key), key);
  for (auto const& [key, value] : complete["candidate"].items())
    fields.emplace_back(json::json_pointer("/candidate/" + key), "candidate." + key);
  for (auto const& [key, value] : complete["sizes"][1].items())
    fields.emplace_back(json::json_pointer("/sizes/1/" + key), "sizes[1]." + key);
  for (auto const& [key, value] : complete["sizes"][1]["candidate"].items())
    fields.emplace_back(json::json_pointer("/sizes/1/candidate/" + key), "sizes[1].candidate." + key);
  for (auto const& [key, value] : complete["sizes"][1]["candidate"]["us"].items())
    fields.emplace_back(json::json_pointer("/sizes/1/candidate/us/" + key), "sizes[1].candidate.us." + key);
  ASSERT_EQ(fields.size(), 9u + 5u + 15u + 4u + 7u);  // top level, verdict, size, timing, stats
  for (auto const& [pointer, name] : fields) {
    json body = complete;
    body[pointer.parent_pointer()].erase(pointer.back());
    CandidateReport report;
    auto after = apply_reply(task, test_device(), reply_with(body), report);
    ASSERT_TRUE(after) << name;
    EXPECT_EQ(*after, WorkerAfterReply::discard) << name;
    EXPECT_EQ(report.status, CandidateStatus::runtime_error) << name;
    EXPECT_NE(report.message.find(name + ": missing"), std::string::npos) << name << ": " << report.message;
  }
}

TEST(ApplyReply, AnUnknownFieldOrAWrongTypeRejectsTheCandidate) {
  TaskSpec const task = vector_add_task();
  struct Case {
    char const* pointer;
    json value;
    char const* expect;
  };
  std::vector<Case> const cases{
      {"/verdict", "ok", "verdict: unknown field"},
      {"/sizes/0/passed", true, "sizes[0].passed: unknown field"},
      {"/sizes/1/status", nullptr, "sizes[1].status: expected a string"},
      {"/sizes/1/mismatches", -1, "sizes[1].mismatches: expected a non-negative integer"},
      {"/sizes/1/verify_only", "no", "sizes[1].verify_only: expected true or false"},
      {"/sizes/1/candidate/us/median", "fast", "sizes[1].candidate.us.median: expected a number"},
      {"/sizes/1/seeds/0", -5, "sizes[1].seeds[0]: expected a non-negative integer"},
      {"/candidate/max_abs_err", "0", "candidate.max_abs_err: expected a number"},
      {"/sizes", json::object(), "sizes: expected an array"},
  };
  for (auto const& c : cases) {
    json body = evaluate_body();
    body[json::json_pointer(c.pointer)] = c.value;
    CandidateReport report;
    auto after = apply_reply(task, test_device(), reply_with(body), report);
    ASSERT_TRUE(after) << c.pointer;
    EXPECT_EQ(report.status, CandidateStatus::runtime_error) << c.pointer;
    EXPECT_NE(report.message.find(c.expect), std::string::npos) << c.pointer << ": " << report.message;
  }
}

TEST(ApplyReply, ACompleteReplyKeepsTheWorker) {
  CandidateReport report;
  auto after = apply_reply(vector_add_task(), test_device(), reply_with(evaluate_body()), report);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(*after, WorkerAfterReply::keep);
}

TEST(ApplyReply, WorkerDiedWithFatalTimeoutIsTimeout) {
  TaskSpec const task = vector_add_task();
  worker::Reply reply = reply_with(json{
      {"reply", "evaluate"}, {"id", 3}, {"fatal", "timeout"}, {"message", "candidate exceeded 2000 ms"}});
  reply.worker_died = true;
  reply.exit.exited = true;
  reply.exit.code = 3;
  CandidateReport report;
  ASSERT_TRUE(apply_reply(task, test_device(), reply, report));
  EXPECT_EQ(report.status, CandidateStatus::timeout);
  EXPECT_EQ(report.message, "candidate exceeded 2000 ms");
  EXPECT_TRUE(report.sizes.empty());
}

TEST(ApplyReply, ClientTimeoutIsTimeout) {
  TaskSpec const task = vector_add_task();
  worker::Reply reply;
  reply.worker_died = true;
  reply.client_timeout = true;
  reply.exit.code = SIGKILL;
  CandidateReport report;
  ASSERT_TRUE(apply_reply(task, test_device(), reply, report));
  EXPECT_EQ(report.status, CandidateStatus::timeout);
  EXPECT_FALSE(report.message.empty());
}

TEST(ApplyReply, DeathBySignalWithoutReplyIsARuntimeErrorNamingTheSignal) {
  TaskSpec const task = vector_add_task();
  worker::Reply reply;
  reply.worker_died = true;
  reply.exit.exited = false;
  reply.exit.code = SIGSEGV;
  reply.stderr_tail = "line 1: fault in candidate\nline 2\nline 3\nline 4\nline 5\nline 6: not quoted\n";
  CandidateReport report;
  ASSERT_TRUE(apply_reply(task, test_device(), reply, report));
  EXPECT_EQ(report.status, CandidateStatus::runtime_error);
  EXPECT_NE(report.message.find(reply.exit.describe()), std::string::npos) << report.message;
  EXPECT_NE(report.message.find("signal 11"), std::string::npos) << report.message;
  EXPECT_NE(report.message.find(strsignal(SIGSEGV)), std::string::npos) << report.message;
  EXPECT_NE(report.message.find("fault in candidate"), std::string::npos) << report.message;
  EXPECT_EQ(report.message.find("not quoted"), std::string::npos) << report.message;
}

TEST(ApplyReply, StickyErrorWithRestartIsNeverOk) {
  TaskSpec const task = vector_add_task();
  json body = evaluate_body();
  body["restart"] = true;
  worker::Reply reply = reply_with(body);
  reply.worker_died = true;
  reply.exit.exited = true;
  reply.exit.code = 4;
  CandidateReport report;
  ASSERT_TRUE(apply_reply(task, test_device(), reply, report));
  EXPECT_EQ(report.status, CandidateStatus::runtime_error);
  EXPECT_EQ(report.sizes.size(), 3u);
  EXPECT_FALSE(report.geomean_speedup);
}

TEST(ApplyReply, ErrorBodyIsAnError) {
  TaskSpec const task = vector_add_task();
  CandidateReport report;
  auto status = apply_reply(
      task, test_device(),
      reply_with(json{{"reply", "evaluate"},
                      {"id", 2},
                      {"error", {{"code", "invalid_spec"}, {"message", "size 'huge' is not in task.toml"}}}}),
      report);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, ErrorCode::invalid_spec);
  EXPECT_EQ(status.error().message, "size 'huge' is not in task.toml");

  auto other = apply_reply(
      task, test_device(),
      reply_with(
          json{{"reply", "evaluate"},
               {"id", 2},
               {"error", {{"code", "worker_error"}, {"message", "the reference failed: illegal address"}}}}),
      report);
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code, ErrorCode::worker_error);
  EXPECT_EQ(other.error().message, "the reference failed: illegal address");

  // An error reply kopt cannot read is still an error, one that names what is wrong with it.
  auto garbled = apply_reply(
      task, test_device(),
      reply_with(json{{"error", {{"message", "the reference failed: illegal address"}}}}), report);
  ASSERT_FALSE(garbled);
  EXPECT_EQ(garbled.error().code, ErrorCode::worker_error);
  EXPECT_EQ(garbled.error().message, "malformed error reply: reply: missing");
}

TEST(ApplyCheckReply, ReadsSizesAndWarnsAboutConstantOutputs) {
  TaskSpec const task = vector_add_task();
  json body{{"reply", "check_task"},
            {"id", 1},
            {"sizes",
             {{{"size", "medium"},
               {"verify_only", false},
               {"deterministic", true},
               {"reference_constant", false},
               {"note", ""},
               {"reference", {{"us", stats(30.0)}, {"device_wide", false}, {"warmup_ms", 2.0}}}},
              {{"size", "large"},
               {"verify_only", false},
               {"deterministic", true},
               {"reference_constant", true},
               {"note", ""},
               {"reference", {{"us", stats(300.0)}, {"device_wide", false}, {"warmup_ms", 2.0}}}}}}};
  TaskCheckReport report;
  ASSERT_TRUE(apply_check_reply(task, reply_with(body), report));
  ASSERT_EQ(report.sizes.size(), 2u);
  EXPECT_EQ(report.sizes[0].size, "medium");
  ASSERT_TRUE(report.sizes[0].bytes);
  EXPECT_DOUBLE_EQ(*report.sizes[0].bytes, 12.0 * 1048576.0);
  ASSERT_EQ(report.sizes[0].buffer_elements.size(), 3u);
  EXPECT_EQ(report.sizes[0].buffer_elements[0].second, 1048576u);
  ASSERT_TRUE(report.sizes[1].reference);
  EXPECT_DOUBLE_EQ(report.sizes[1].reference->us.median, 300.0);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("size 'large'"), std::string::npos) << report.warnings[0];
}

TEST(ApplyCheckReply, ASizeWithAMissingFieldIsAWorkerErrorNamingIt) {
  TaskSpec const task = vector_add_task();
  json body{
      {"reply", "check_task"},
      {"id", 1},
      {"sizes", {{{"size", "medium"}, {"verify_only", false}, {"reference_constant", false}, {"note", ""}}}}};
  TaskCheckReport report;
  auto status = apply_check_reply(task, reply_with(body), report);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, ErrorCode::worker_error);
  EXPECT_EQ(status.error().message, "malformed check_task reply: sizes[0].deterministic: missing");
  EXPECT_TRUE(report.sizes.empty());
}

TEST(ApplyCheckReply, WorkerDeathIsAWorkerError) {
  TaskSpec const task = vector_add_task();
  worker::Reply reply;
  reply.worker_died = true;
  reply.exit.exited = false;
  reply.exit.code = SIGABRT;
  reply.stderr_tail = "reference aborted\n";
  TaskCheckReport report;
  auto status = apply_check_reply(task, reply, report);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code, ErrorCode::worker_error);
  EXPECT_NE(status.error().message.find("reference aborted"), std::string::npos) << status.error().message;
}

}  // namespace reply_mapping_test
}  // namespace kopt
