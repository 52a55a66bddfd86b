// Recorded replies: recording a session and replaying it, in order or by request hash.
#include <gtest/gtest.h>

#include <fstream>

#include "kopt/llm.hpp"
#include "llm/llm_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace replay_backend_test {

using test::FakeBackend;
using test::simple_request;

Result<std::unique_ptr<LlmBackend>> replay(std::filesystem::path const& file, ReplayOrder order) {
  LlmConfig config;
  config.kind = LlmKind::replay;
  config.replay_file = file;
  config.replay_order = order;
  return make_llm_backend(config);
}

TEST(ReplayBackend, RecordedSessionReplaysByRequestHash) {
  test::TempDir dir;
  auto file = dir.path() / "session.jsonl";
  auto recorder = with_recording(std::make_unique<FakeBackend>(), file);
  auto first = recorder->complete(simple_request("one"));
  auto second = recorder->complete(simple_request("two"));
  ASSERT_TRUE(first && second);

  auto llm = replay(file, ReplayOrder::by_request_hash);
  ASSERT_TRUE(llm) << llm.error().message;
  auto two = (*llm)->complete(simple_request("two"));  // out of order
  ASSERT_TRUE(two) << two.error().message;
  EXPECT_EQ(two->text, second->text);
  EXPECT_EQ(two->backend, "replay");
  EXPECT_EQ(two->cost_usd, 0.0);
  EXPECT_EQ(two->usage.input_tokens, 10);
  auto one = (*llm)->complete(simple_request("one"));
  ASSERT_TRUE(one);
  EXPECT_EQ(one->text, first->text);
  auto unknown = (*llm)->complete(simple_request("three"));
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::not_found);
  EXPECT_NE(unknown.error().message.find(llm_request_hash(simple_request("three"))), std::string::npos);
}

TEST(ReplayBackend, InOrderAcceptsBareRepliesAndSaysWhenTheyRunOut) {
  test::TempDir dir;
  auto file = dir.path() / "replies.jsonl";
  std::ofstream(file) << R"({"text": "first", "finish_reason": "stop"})"
                      << "\n\n"
                      << R"({"text": "second", "usage": {"input_tokens": 7, "output_tokens": 3}})"
                      << "\n";
  auto llm = replay(file, ReplayOrder::in_order);
  ASSERT_TRUE(llm) << llm.error().message;
  EXPECT_EQ((*llm)->complete(simple_request("a"))->text, "first");
  auto second = (*llm)->complete(simple_request("b"));
  ASSERT_TRUE(second);
  EXPECT_EQ(second->text, "second");
  EXPECT_EQ(second->usage.output_tokens, 3);
  auto third = (*llm)->complete(simple_request("c"));
  ASSERT_FALSE(third);
  EXPECT_NE(third.error().message.find("has 2 replies; call 3 asked for one more"), std::string::npos)
      << third.error().message;
}

TEST(ReplayBackend, BadFilesAreErrorsNamingTheLine) {
  test::TempDir dir;
  auto file = dir.path() / "bad.jsonl";
  std::ofstream(file) << R"({"text": "ok"})"
                      << "\n"
                      << R"({"text": 5})"
                      << "\n";
  auto bad = replay(file, ReplayOrder::in_order);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("bad.jsonl:2: field text: expected a string"), std::string::npos)
      << bad.error().message;

  std::ofstream(file, std::ios::trunc) << R"({"text": "no hash"})"
                                       << "\n";
  auto unhashed = replay(file, ReplayOrder::by_request_hash);
  ASSERT_FALSE(unhashed);
  EXPECT_NE(unhashed.error().message.find("bad.jsonl:1: field request_sha256"), std::string::npos);

  std::ofstream(file, std::ios::trunc) << "not json\n";
  EXPECT_FALSE(replay(file, ReplayOrder::in_order));
  EXPECT_FALSE(replay(dir.path() / "missing.jsonl", ReplayOrder::in_order));
  LlmConfig config;
  config.kind = LlmKind::replay;
  auto unset = make_llm_backend(config);
  ASSERT_FALSE(unset);
  EXPECT_NE(unset.error().message.find("KOPT_LLM_REPLAY_FILE"), std::string::npos);
}

TEST(ReplayBackend, RequestHashCoversEveryField) {
  auto base = simple_request();
  auto const hash = llm_request_hash(base);
  EXPECT_EQ(hash.size(), 64U);
  EXPECT_EQ(hash, llm_request_hash(simple_request()));
  auto other = base;
  other.sample = 3;
  EXPECT_NE(llm_request_hash(other), hash);
  other = base;
  other.temperature.reset();
  EXPECT_NE(llm_request_hash(other), hash);
  other = base;
  other.messages[0].role = "assistant";
  EXPECT_NE(llm_request_hash(other), hash);
}

}  // namespace replay_backend_test
}  // namespace kopt
