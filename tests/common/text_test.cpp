#include "kopt/text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace kopt {
namespace {

TEST(Text, AsciiLowerChangesOnlyAsciiLetters) {
  EXPECT_EQ(ascii_lower("CHOICE: Tensor_Core_MMA 42"), "choice: tensor_core_mma 42");
  std::string const utf8 = "\xC3\x89T\xC3\x89";  // "ÉTÉ": the multi-byte letters stay as they are
  EXPECT_EQ(ascii_lower(utf8), "\xC3\x89t\xC3\x89");
  EXPECT_EQ(ascii_lower(""), "");
}

}  // namespace
}  // namespace kopt
