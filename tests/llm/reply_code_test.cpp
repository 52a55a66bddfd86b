// The kernel in a reply: fenced blocks, language tags, and the typed failures.
#include <gtest/gtest.h>

#include "kopt/llm_roles.hpp"

namespace kopt {
namespace reply_code_test {

TEST(FencedBlocks, FindsBlocksTagsAndLines) {
  auto blocks =
      fenced_blocks("intro\n```CUDA\na\n```\ntext\n````cpp title\nb\n```\nc\n````\n~~~\n```\nopen\n");
  ASSERT_EQ(blocks.size(), 3U);
  EXPECT_EQ(blocks[0].language, "cuda");
  EXPECT_EQ(blocks[0].code, "a\n");
  EXPECT_EQ(blocks[0].first_line, 2);
  EXPECT_TRUE(blocks[0].closed);
  EXPECT_EQ(blocks[1].language, "cpp");
  EXPECT_EQ(blocks[1].code, "b\n```\nc\n");  // a shorter fence does not close a longer one
  EXPECT_FALSE(blocks[2].closed);
  EXPECT_EQ(blocks[2].code, "open\n");
}

TEST(ExtractKernel, TakesTheLastCodeBlock) {
  auto code = extract_kernel(
      "First a sketch:\n```cuda\nsketch();\n```\nNow the final version:\n```cuda\n"
      "__global__ void k() {}\n```\nDone.");
  ASSERT_TRUE(code.ok()) << code.failure().message;
  EXPECT_EQ(*code, "__global__ void k() {}\n");
}

TEST(ExtractKernel, SkipsBlocksInOtherLanguages) {
  auto code = extract_kernel("```cpp\nint k;\n```\nRun it with:\n```bash\nnvcc k.cu\n```\n");
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(*code, "int k;\n");
  auto untagged = extract_kernel("```\nvoid f();\n```\n```text\nnotes\n```\n");
  ASSERT_TRUE(untagged.ok());
  EXPECT_EQ(*untagged, "void f();\n");
}

TEST(ExtractKernel, TakesTheOnlyBlockWhateverItsTag) {
  auto code = extract_kernel("Here:\n```cu-kernel\nvoid g();\n```\n");
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(*code, "void g();\n");
}

TEST(ExtractKernel, HandlesCrlfReplies) {
  auto code = extract_kernel("```cuda\r\nint a;\r\nint b;\r\n```\r\n");
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(*code, "int a;\nint b;\n");
}

TEST(ExtractKernel, NoBlockIsNoCode) {
  auto code = extract_kernel("I would use shared memory and warp shuffles here.");
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(code.failure().kind, ReplyFailureKind::no_code);
  EXPECT_NE(code.failure().message.find("```cuda"), std::string::npos);
  auto empty = extract_kernel("```cuda\n\n```\n");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.failure().kind, ReplyFailureKind::no_code);
  auto others = extract_kernel("```bash\nmake\n```\n```text\nx\n```\n");
  ASSERT_FALSE(others.ok());
  EXPECT_EQ(others.failure().kind, ReplyFailureKind::no_code);
}

TEST(ExtractKernel, AReplyCutInsideTheKernelIsUnclosed) {
  auto code = extract_kernel("```cuda\nfirst();\n```\nFinal:\n```cuda\n__global__ void k() {\n  int i =");
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(code.failure().kind, ReplyFailureKind::unclosed_fence);
  EXPECT_NE(code.failure().message.find("line 5"), std::string::npos) << code.failure().message;
  EXPECT_EQ(to_string(code.failure().kind), "unclosed_fence");
}

TEST(ParseKernelReply, PrefersEditsAndFallsBackToAFencedKernel) {
  std::string const current = "int a = 1;\nint b = 2;\n";
  auto edited = parse_kernel_reply(
      "```cuda\n<<<<<<< SEARCH\nint b = 2;\n=======\nint b = 3;\n>>>>>>> REPLACE\n```\n", current);
  ASSERT_TRUE(edited.ok()) << edited.failure().message;
  EXPECT_TRUE(edited->from_edits);
  EXPECT_EQ(edited->source, "int a = 1;\nint b = 3;\n");
  auto whole = parse_kernel_reply("```cuda\nint c;\n```\n", current);
  ASSERT_TRUE(whole.ok());
  EXPECT_FALSE(whole->from_edits);
  EXPECT_EQ(whole->source, "int c;\n");
  auto nothing = parse_kernel_reply("no idea", current);
  ASSERT_FALSE(nothing.ok());
  EXPECT_EQ(nothing.failure().kind, ReplyFailureKind::no_code);
  auto no_base = parse_kernel_reply("<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", "");
  ASSERT_FALSE(no_base.ok());
  EXPECT_EQ(no_base.failure().kind, ReplyFailureKind::no_code);
}

}  // namespace reply_code_test
}  // namespace kopt
