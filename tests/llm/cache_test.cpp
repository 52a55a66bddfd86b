// The response cache: repeated requests are answered from disk, without HTTP, at no cost.
#include <gtest/gtest.h>

#include <fstream>

#include "kopt/llm.hpp"
#include "llm/llm_fixtures.hpp"
#include "llm/stub_server.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace cache_test {

using test::FakeBackend;
using test::simple_request;

TEST(ResponseCache, RepeatedRequestIsAnsweredWithoutHttpAndCostsNothing) {
  test::TempDir dir;
  test::StubServer server;
  server.script({test::StubReply{200, test::openai_body("cached kernel", 100, 10), {}, {}, false}});
  test::FakeTime time;
  LlmConfig config;
  config.base_url = server.url("/v1");
  config.model = "m";
  config.cache_dir = dir.path() / "cache";
  config.prices.models["m"] = LlmPrice{1.0, 1.0, 1.0};
  auto llm = make_llm_backend(config, time.hooks());
  ASSERT_TRUE(llm) << llm.error().message;

  auto first = (*llm)->complete(simple_request());
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->from_cache);
  EXPECT_NEAR(first->cost_usd.value_or(-1), 110 / 1e6, 1e-12);
  auto second = (*llm)->complete(simple_request());
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(second->text, "cached kernel");
  EXPECT_EQ(second->cost_usd, 0.0);
  EXPECT_EQ(second->attempts, 0);
  EXPECT_EQ(second->usage.input_tokens, 100);  // what the original call used
  EXPECT_EQ(server.requests().size(), 1U);

  // A fresh backend (a later run) replays it from disk too.
  auto again = make_llm_backend(config, time.hooks());
  ASSERT_TRUE(again);
  auto third = (*again)->complete(simple_request());
  ASSERT_TRUE(third) << third.error().message;
  EXPECT_TRUE(third->from_cache);
  EXPECT_EQ(server.requests().size(), 1U);
}

TEST(ResponseCache, EveryFieldOfTheRequestAndTheBackendIdentityIsInTheKey) {
  test::TempDir dir;
  auto fake = std::make_unique<FakeBackend>();
  auto calls = fake->calls();
  auto llm = with_response_cache(std::move(fake), dir.path());
  auto base = simple_request();
  ASSERT_TRUE(llm->complete(base));
  std::vector<LlmRequest> variants(7, base);
  variants[0].system = "other";
  variants[1].messages[0].text = "other";
  variants[2].model = "other";
  variants[3].max_tokens = 1;
  variants[4].temperature = 0.9;
  variants[5].stop = {"x"};
  variants[6].sample = 1;
  for (auto const& variant : variants) {
    auto reply = llm->complete(variant);
    ASSERT_TRUE(reply);
    EXPECT_FALSE(reply->from_cache);
  }
  EXPECT_EQ(*calls, 8);
  for (auto const& variant : variants) EXPECT_TRUE(llm->complete(variant)->from_cache);
  EXPECT_EQ(*calls, 8);

  auto other = with_response_cache(std::make_unique<FakeBackend>(0.25, "fake at another URL"), dir.path());
  EXPECT_FALSE(other->complete(base)->from_cache);
}

TEST(ResponseCache, DamagedEntryIsAMissAndIsRewritten) {
  test::TempDir dir;
  auto fake = std::make_unique<FakeBackend>();
  auto calls = fake->calls();
  auto llm = with_response_cache(std::move(fake), dir.path());
  ASSERT_TRUE(llm->complete(simple_request()));
  int entries = 0;
  for (auto const& entry : std::filesystem::recursive_directory_iterator(dir.path())) {
    if (entry.is_regular_file()) {
      std::ofstream(entry.path(), std::ios::trunc) << "{ damaged";
      ++entries;
    }
  }
  ASSERT_EQ(entries, 1);
  auto reply = llm->complete(simple_request());
  ASSERT_TRUE(reply);
  EXPECT_FALSE(reply->from_cache);
  EXPECT_EQ(*calls, 2);
  EXPECT_TRUE(llm->complete(simple_request())->from_cache);
}

TEST(ResponseCache, FailuresAreNotCached) {
  test::TempDir dir;
  test::StubServer server;
  server.script({test::StubReply{400, "{}", {}, {}, false},
                 test::StubReply{200, test::openai_body("now it works"), {}, {}, false}});
  test::FakeTime time;
  LlmConfig config;
  config.base_url = server.url("/v1");
  config.model = "m";
  config.cache_dir = dir.path();
  auto llm = make_llm_backend(config, time.hooks());
  ASSERT_TRUE(llm);
  EXPECT_FALSE((*llm)->complete(simple_request()));
  auto reply = (*llm)->complete(simple_request());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_FALSE(reply->from_cache);
  EXPECT_EQ(server.requests().size(), 2U);
}

}  // namespace cache_test
}  // namespace kopt
