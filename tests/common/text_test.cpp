#include "kopt/text.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "kopt/json_values.hpp"

namespace kopt {
namespace text_test {

TEST(Text, AsciiLowerChangesOnlyAsciiLetters) {
  EXPECT_EQ(ascii_lower("CHOICE: Tensor_Core_MMA 42"), "choice: tensor_core_mma 42");
  std::string const utf8 = "\xC3\x89T\xC3\x89";  // "ÉTÉ": the multi-byte letters stay as they are
  EXPECT_EQ(ascii_lower(utf8), "\xC3\x89t\xC3\x89");
  EXPECT_EQ(ascii_lower(""), "");
}

}  // namespace text_test
}  // namespace kopt

namespace kopt {
namespace text_test {

TEST(Text, MarkupEscapeReplacesTheFiveSpecialCharacters) {
  EXPECT_EQ(markup_escape(R"(<a href="x">Tom & Jerry's</a>)"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  EXPECT_EQ(markup_escape("plain µs"), "plain µs");
}

TEST(Text, UtcNowIsIso8601ToTheSecond) {
  std::string const now = utc_now_iso8601();
  ASSERT_EQ(now.size(), 20u) << now;
  EXPECT_EQ(now[4], '-');
  EXPECT_EQ(now[10], 'T');
  EXPECT_EQ(now.back(), 'Z');
  EXPECT_GE(now.substr(0, 4), "2026");
}

TEST(JsonValues, NumbersAndTheirAbsence) {
  EXPECT_EQ(number_or_null(std::nullopt), nlohmann::json(nullptr));
  EXPECT_EQ(number_or_null(2.5), nlohmann::json(2.5));
  EXPECT_EQ(number_to_json(std::numeric_limits<double>::quiet_NaN()), nlohmann::json("nan"));
  EXPECT_EQ(number_to_json(-std::numeric_limits<double>::infinity()), nlohmann::json("-inf"));
  EXPECT_EQ(optional_number_to_json(std::nullopt), nlohmann::json(nullptr));
  EXPECT_EQ(optional_number_to_json(1.0), nlohmann::json(1.0));
}

}  // namespace text_test
}  // namespace kopt
