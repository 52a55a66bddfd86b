#include "profile/csv_line.hpp"

#include <gtest/gtest.h>

namespace kopt::detail {
namespace csv_line_test {

using Fields = std::vector<std::string>;

TEST(SplitCsvLine, QuotedFieldsKeepCommasAndDoubledQuotes) {
  auto const fields = split_csv_line(R"("ID","268,449,792","say ""hi""","")");
  ASSERT_TRUE(fields.has_value());
  EXPECT_EQ(*fields, (Fields{"ID", "268,449,792", "say \"hi\"", ""}));
}

TEST(SplitCsvLine, UnquotedAndTrailingEmptyFields) {
  auto const fields = split_csv_line("a,,b,");
  ASSERT_TRUE(fields.has_value());
  EXPECT_EQ(*fields, (Fields{"a", "", "b", ""}));
}

TEST(SplitCsvLine, MalformedQuotingIsNotARecord) {
  EXPECT_FALSE(split_csv_line(R"("open,"b")").has_value());       // quote left open
  EXPECT_FALSE(split_csv_line(R"("a"x,"b")").has_value());        // text after the closing quote
  EXPECT_FALSE(split_csv_line(R"(say "hi" there)").has_value());  // quote inside an unquoted field
}

}  // namespace csv_line_test
}  // namespace kopt::detail
