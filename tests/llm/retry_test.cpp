// Retry-After parsing, backoff and the classification of HTTP failures.
#include "llm/retry.hpp"

#include <gtest/gtest.h>

namespace kopt::llm {
namespace retry_test {

using std::chrono::milliseconds;

auto const kNow = std::chrono::system_clock::from_time_t(1'700'000'000);  // Tue, 14 Nov 2023 22:13:20 GMT

TEST(RetryAfter, SecondsAndHttpDates) {
  EXPECT_EQ(parse_retry_after("12", kNow), milliseconds(12000));
  EXPECT_EQ(parse_retry_after(" 0 ", kNow), milliseconds(0));
  EXPECT_EQ(parse_retry_after("Tue, 14 Nov 2023 22:14:20 GMT", kNow), milliseconds(60000));
  EXPECT_EQ(parse_retry_after("Tue, 14 Nov 2023 22:00:00 GMT", kNow), milliseconds(0));  // in the past
  EXPECT_FALSE(parse_retry_after("", kNow));
  EXPECT_FALSE(parse_retry_after("soon", kNow));
  EXPECT_FALSE(parse_retry_after("-3", kNow));
  EXPECT_FALSE(parse_retry_after("99999999999999", kNow));
}

TEST(Backoff, FullJitterGrowsExponentiallyUpToTheCapAndHonoursRetryAfter) {
  LlmRetryPolicy policy;
  policy.base_delay = milliseconds(1000);
  policy.max_delay = milliseconds(5000);
  EXPECT_EQ(backoff_delay(1, policy, 0.999, std::nullopt), milliseconds(999));
  EXPECT_EQ(backoff_delay(2, policy, 0.5, std::nullopt), milliseconds(1000));
  EXPECT_EQ(backoff_delay(3, policy, 0.5, std::nullopt), milliseconds(2000));
  EXPECT_EQ(backoff_delay(10, policy, 0.5, std::nullopt), milliseconds(2500));  // capped at 5 s
  EXPECT_EQ(backoff_delay(1, policy, 0.0, std::nullopt), milliseconds(0));
  EXPECT_EQ(backoff_delay(1, policy, 0.5, milliseconds(4000)), milliseconds(4000));
  EXPECT_EQ(backoff_delay(4, policy, 0.9, milliseconds(10)), milliseconds(4500));
}

TEST(ClassifyHttpFailure, RetriesTransientFailuresOnly) {
  EXPECT_TRUE(classify_http_failure(429, "{}", "m", "").retryable);
  EXPECT_TRUE(classify_http_failure(500, "", "m", "").retryable);
  EXPECT_TRUE(classify_http_failure(503, "", "m", "").retryable);
  EXPECT_TRUE(classify_http_failure(529, "", "m", "").retryable);
  EXPECT_TRUE(classify_http_failure(408, "", "m", "").retryable);
  EXPECT_TRUE(classify_http_failure(400, R"({"error":{"type":"overloaded_error"}})", "m", "").retryable);
  EXPECT_FALSE(classify_http_failure(400, "", "m", "").retryable);
  EXPECT_FALSE(classify_http_failure(401, "", "m", "").retryable);
  EXPECT_FALSE(classify_http_failure(403, "", "m", "").retryable);
  EXPECT_FALSE(classify_http_failure(422, "", "m", "").retryable);
  EXPECT_FALSE(classify_http_failure(429, R"({"error":{"code":"insufficient_quota"}})", "m", "").retryable);

  auto const unknown =
      classify_http_failure(400, R"({"error":"model \"x\" not found, try pulling it first"})", "x", "");
  EXPECT_FALSE(unknown.retryable);
  EXPECT_EQ(unknown.code, ErrorCode::not_found);
  EXPECT_EQ(classify_http_failure(404, "", "x", "").code, ErrorCode::not_found);
  EXPECT_EQ(classify_http_failure(401, "", "x", "").code, ErrorCode::invalid_argument);
}

TEST(ErrorBodyMessage, ReadsTheCommonShapes) {
  EXPECT_EQ(error_body_message(R"({"error":{"message":"a"}})"), "a");
  EXPECT_EQ(error_body_message(R"({"error":"b"})"), "b");
  EXPECT_EQ(error_body_message(R"({"detail":"c"})"), "c");
  EXPECT_EQ(error_body_message("  plain text\n"), "plain text");
  EXPECT_EQ(error_body_message(std::string(1000, 'x')).size(), 303U);
}

}  // namespace retry_test
}  // namespace kopt::llm
