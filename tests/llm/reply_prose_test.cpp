// reply_prose: the rationale of a reply without its code.
#include <gtest/gtest.h>

#include <string>

#include "kopt/llm_roles.hpp"

namespace kopt {
namespace reply_prose_test {

TEST(ReplyProse, AReplyWithoutCodeIsItsTrimmedText) {
  EXPECT_EQ(reply_prose("  \n\nStrategy softmax_warp_per_row: each warp owns one row.\n\n\n"),
            "Strategy softmax_warp_per_row: each warp owns one row.");
}

TEST(ReplyProse, AReplyThatIsOnlyCodeHasNoProse) {
  EXPECT_EQ(reply_prose("```cuda\n__global__ void k() {}\n```\n"), "");
  EXPECT_EQ(reply_prose("```cuda\n__global__ void k() {}\n"), "");  // unclosed: code to the end
}

TEST(ReplyProse, ProseBeforeAndAfterTheCodeIsKeptAsParagraphs) {
  std::string const reply =
      "Strategy softmax_warp_per_row: each warp owns one row,\nreducing with shuffles.\n\n"
      "````cuda\n// kernel\n```\nnot a close: shorter fence\n````\n"
      "Launch with one warp per row.\r\n";
  EXPECT_EQ(reply_prose(reply),
            "Strategy softmax_warp_per_row: each warp owns one row,\nreducing with shuffles.\n\n"
            "Launch with one warp per row.");
}

TEST(ReplyProse, SearchReplaceBlocksAreLeftOut) {
  std::string const reply =
      "Unroll the inner loop by 4.\n<<<<<<< SEARCH\nfor (int i = 0; i < n; ++i)\n=======\n"
      "#pragma unroll 4\nfor (int i = 0; i < n; ++i)\n>>>>>>> REPLACE\nThis removes loop overhead.\n";
  EXPECT_EQ(reply_prose(reply), "Unroll the inner loop by 4.\n\nThis removes loop overhead.");
}

TEST(ReplyProse, LongProseIsCutOnACharacterBoundary) {
  std::string const text = "ab\xce\xbb" + std::string(20, 'x');  // "abλxxx...": λ is two bytes
  EXPECT_EQ(reply_prose(text, 3), "ab ...");                     // not in the middle of λ
  EXPECT_EQ(reply_prose(text, 4), "ab\xce\xbb ...");
  EXPECT_EQ(reply_prose(text, 100), text);  // short enough: whole, no mark
  std::string const long_text(2000, 'y');
  std::string const cut = reply_prose(long_text);
  EXPECT_EQ(cut, std::string(1500, 'y') + " ...");
}

}  // namespace reply_prose_test
}  // namespace kopt
