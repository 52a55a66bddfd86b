// LlmBudget and the budgeted backend: --max-calls and --max-cost stop cleanly.
#include <gtest/gtest.h>

#include "kopt/llm.hpp"
#include "llm/llm_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace budget_test {

using test::FakeBackend;
using test::simple_request;

TEST(LlmBudget, MaxCallsRefusesTheCallPastTheLimitWithoutCallingTheBackend) {
  auto budget = std::make_shared<LlmBudget>(LlmLimits{std::nullopt, 2});
  auto fake = std::make_unique<FakeBackend>();
  auto calls = fake->calls();
  auto llm = with_budget(std::move(fake), budget);
  EXPECT_TRUE(llm->complete(simple_request()));
  EXPECT_TRUE(llm->complete(simple_request()));
  EXPECT_EQ(budget->check(), BudgetVerdict::calls_exhausted);
  auto refused = llm->complete(simple_request());
  ASSERT_FALSE(refused);
  EXPECT_TRUE(is_llm_budget_error(refused.error()));
  EXPECT_EQ(refused.error().message, "LLM budget exhausted: --max-calls 2 reached (2 calls made)");
  EXPECT_EQ(*calls, 2);
  EXPECT_EQ(budget->calls(), 2);
  EXPECT_DOUBLE_EQ(budget->spent_usd(), 0.5);
}

TEST(LlmBudget, MaxCostStopsOnceSpentWhenTheWorstCaseIsUnknown) {
  auto budget = std::make_shared<LlmBudget>(LlmLimits{1.0, std::nullopt});
  auto fake = std::make_unique<FakeBackend>(0.4);
  auto calls = fake->calls();
  auto llm = with_budget(std::move(fake), budget);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(llm->complete(simple_request()));
  auto refused = llm->complete(simple_request());
  ASSERT_FALSE(refused);
  EXPECT_TRUE(is_llm_budget_error(refused.error()));
  EXPECT_NE(refused.error().message.find("--max-cost $1.0000 would be passed ($1.2000 spent in 3 calls)"),
            std::string::npos)
      << refused.error().message;
  EXPECT_EQ(*calls, 3);
}

TEST(LlmBudget, MaxCostRefusesACallWhoseWorstCaseWouldPassTheLimit) {
  PriceTable prices;
  prices.models["m"] = LlmPrice{0.0, 0.0, 1000.0};  // $0.001 per output token
  auto budget = std::make_shared<LlmBudget>(LlmLimits{0.5, std::nullopt});
  auto fake = std::make_unique<FakeBackend>(0.1);
  auto calls = fake->calls();
  auto llm = with_budget(std::move(fake), budget, prices, "m");
  auto request = simple_request();
  request.max_tokens = 300;             // worst case $0.30
  EXPECT_TRUE(llm->complete(request));  // 0 + 0.3 <= 0.5
  EXPECT_TRUE(llm->complete(request));  // 0.1 + 0.3 <= 0.5
  EXPECT_TRUE(llm->complete(request));  // 0.2 + 0.3 <= 0.5 still fits
  auto past = llm->complete(request);   // 0.3 + 0.3 > 0.5
  ASSERT_FALSE(past);
  EXPECT_TRUE(is_llm_budget_error(past.error()));
  EXPECT_EQ(budget->check(0.3), BudgetVerdict::cost_exhausted);
  request.max_tokens = 100;  // a smaller call still fits
  EXPECT_TRUE(llm->complete(request));
  EXPECT_EQ(*calls, 4);
}

TEST(LlmBudget, UnknownCostUnderMaxCostStopsWithItsOwnVerdict) {
  auto budget = std::make_shared<LlmBudget>(LlmLimits{5.0, std::nullopt});
  auto llm = with_budget(std::make_unique<FakeBackend>(std::nullopt), budget);
  EXPECT_TRUE(llm->complete(simple_request()));
  EXPECT_EQ(budget->check(), BudgetVerdict::cost_unknown);
  auto refused = llm->complete(simple_request());
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("cannot be enforced"), std::string::npos) << refused.error().message;
  // Without --max-cost an unknown cost stops nothing.
  auto unlimited =
      with_budget(std::make_unique<FakeBackend>(std::nullopt), std::make_shared<LlmBudget>(LlmLimits{}));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(unlimited->complete(simple_request()));
}

TEST(LlmBudget, CacheHitsDoNotCount) {
  test::TempDir dir;
  auto budget = std::make_shared<LlmBudget>(LlmLimits{std::nullopt, 1});
  auto llm = with_response_cache(with_budget(std::make_unique<FakeBackend>(), budget), dir.path());
  EXPECT_TRUE(llm->complete(simple_request()));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(llm->complete(simple_request()));
  EXPECT_EQ(budget->calls(), 1);
  EXPECT_FALSE(llm->complete(simple_request("something new")));
  EXPECT_FALSE(is_llm_budget_error(Error{ErrorCode::io_error, "LLM budget exhausted"}));
}

}  // namespace budget_test
}  // namespace kopt
