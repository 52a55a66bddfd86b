// SEARCH/REPLACE blocks: parsing, unique matching, whitespace tolerance, CRLF, and messages for the model.
#include <gtest/gtest.h>

#include "kopt/llm_roles.hpp"

namespace kopt {
namespace search_replace_test {

std::vector<SearchReplace> parse_ok(std::string const& reply) {
  auto edits = parse_search_replace(reply);
  EXPECT_TRUE(edits.ok()) << edits.failure().message;
  return edits.ok() ? *edits : std::vector<SearchReplace>{};
}

TEST(ParseSearchReplace, ReadsBlocksAmidProse) {
  auto edits = parse_ok(
      "Change the loop:\n\n```cuda\n<<<<<<< SEARCH\nfor (int i = 0; i < n; ++i)\n=======\n"
      "for (int i = t; i < n; i += s)\n>>>>>>> REPLACE\n```\nand drop the sync:\n"
      "<<<<<<< SEARCH\n  __syncthreads();\n=======\n>>>>>>> REPLACE\n");
  ASSERT_EQ(edits.size(), 2U);
  EXPECT_EQ(edits[0].search, "for (int i = 0; i < n; ++i)\n");
  EXPECT_EQ(edits[0].replace, "for (int i = t; i < n; i += s)\n");
  EXPECT_EQ(edits[0].line, 4);
  EXPECT_EQ(edits[1].search, "  __syncthreads();\n");
  EXPECT_EQ(edits[1].replace, "");  // an empty replacement deletes
}

TEST(ParseSearchReplace, NoBlocksIsAnEmptyList) {
  EXPECT_TRUE(parse_ok("```cuda\nint x;\n```\n").empty());
}

TEST(ParseSearchReplace, AcceptsCrlfAndMarkerLengths) {
  auto edits = parse_ok("<<<<< SEARCH\r\na\r\n=====\r\nb\r\n>>>>>>>>> REPLACE  \r\n");
  ASSERT_EQ(edits.size(), 1U);
  EXPECT_EQ(edits[0].search, "a\n");
  EXPECT_EQ(edits[0].replace, "b\n");
}

TEST(ParseSearchReplace, MalformedBlocksNameTheBlock) {
  auto no_divider = parse_search_replace("<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n");
  ASSERT_FALSE(no_divider.ok());
  EXPECT_EQ(no_divider.failure().kind, ReplyFailureKind::malformed_edit);
  EXPECT_NE(no_divider.failure().message.find("block 1 (line 1 of the reply)"), std::string::npos);
  auto no_end =
      parse_search_replace("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nc\n=======\nd\n");
  ASSERT_FALSE(no_end.ok());
  EXPECT_NE(no_end.failure().message.find("block 2 (line 6"), std::string::npos) << no_end.failure().message;
  EXPECT_NE(no_end.failure().message.find(">>>>>>> REPLACE"), std::string::npos);
  auto empty_search = parse_search_replace("<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n");
  ASSERT_FALSE(empty_search.ok());
  EXPECT_NE(empty_search.failure().message.find("SEARCH text is empty"), std::string::npos);
}

std::string const kKernel =
    "__global__ void k(float* out, const float* in, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = in[i];\n"
    "  if (i < n) out[i] = in[i];\n"
    "}\n";

TEST(ApplyEdits, ReplacesAUniqueMatch) {
  auto edited =
      apply_edits(kKernel, parse_ok("<<<<<<< SEARCH\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "=======\n  int i = threadIdx.x;\n>>>>>>> REPLACE\n"));
  ASSERT_TRUE(edited.ok()) << edited.failure().message;
  EXPECT_NE(edited->source.find("  int i = threadIdx.x;\n"), std::string::npos);
  EXPECT_EQ(edited->source.find("blockIdx"), std::string::npos);
  EXPECT_TRUE(edited->notes.empty());
}

TEST(ApplyEdits, ZeroMatchesIsRejectedWithAReason) {
  auto edited = apply_edits(
      kKernel, parse_ok("<<<<<<< SEARCH\n  int j = 0;\n=======\n  int j = 1;\n>>>>>>> REPLACE\n"));
  ASSERT_FALSE(edited.ok());
  EXPECT_EQ(edited.failure().kind, ReplyFailureKind::edit_not_found);
  EXPECT_NE(edited.failure().message.find("block 1 (line 1 of the reply): SEARCH text matches no place"),
            std::string::npos)
      << edited.failure().message;
  EXPECT_NE(edited.failure().message.find("`int j = 0;` is not in the kernel"), std::string::npos);
}

TEST(ApplyEdits, TwoMatchesIsRejectedAskingForContext) {
  auto edited = apply_edits(kKernel, parse_ok("<<<<<<< SEARCH\n  if (i < n) out[i] = in[i];\n=======\n"
                                              ">>>>>>> REPLACE\n"));
  ASSERT_FALSE(edited.ok());
  EXPECT_EQ(edited.failure().kind, ReplyFailureKind::edit_ambiguous);
  EXPECT_NE(edited.failure().message.find("SEARCH text matches 2 places; include more context"),
            std::string::npos)
      << edited.failure().message;
}

TEST(ApplyEdits, OverlappingOccurrencesCountAsSeveralMatches) {
  auto edited = apply_edits("aaa\n", {SearchReplace{"aa", "b", 0}});
  ASSERT_FALSE(edited.ok());
  EXPECT_EQ(edited.failure().kind, ReplyFailureKind::edit_ambiguous);
  EXPECT_NE(edited.failure().message.find("block 1: SEARCH text matches 2 places"), std::string::npos)
      << edited.failure().message;
}

TEST(ApplyEdits, BlocksApplyInOrderAndALaterBlockSeesEarlierEdits) {
  auto edits = parse_ok(
      "<<<<<<< SEARCH\n  if (i < n) out[i] = in[i];\n  if (i < n) out[i] = in[i];\n=======\n"
      "  if (i < n) out[i] = 2.0f * in[i];\n>>>>>>> REPLACE\n"
      "<<<<<<< SEARCH\n  if (i < n) out[i] = 2.0f * in[i];\n=======\n"
      "  if (i < n) out[i] = 3.0f * in[i];\n>>>>>>> REPLACE\n");
  auto edited = apply_edits(kKernel, edits);
  ASSERT_TRUE(edited.ok()) << edited.failure().message;
  EXPECT_NE(edited->source.find("3.0f * in[i]"), std::string::npos);
  EXPECT_EQ(edited->source.find("2.0f"), std::string::npos);
  // Two blocks over the same lines: the second no longer finds its text.
  auto overlapping = parse_ok(
      "<<<<<<< SEARCH\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n=======\n"
      "  int i = threadIdx.x;\n>>>>>>> REPLACE\n"
      "<<<<<<< SEARCH\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n)\n"
      "=======\n>>>>>>> REPLACE\n");
  auto failed = apply_edits(kKernel, overlapping);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.failure().message.find("block 2 (line 6 of the reply)"), std::string::npos)
      << failed.failure().message;
  EXPECT_NE(failed.failure().message.find("No block was applied"), std::string::npos);
}

TEST(ApplyEdits, EveryFailingBlockIsListed) {
  auto edits = parse_ok(
      "<<<<<<< SEARCH\nnothing here\n=======\nx\n>>>>>>> REPLACE\n"
      "<<<<<<< SEARCH\n  if (i < n) out[i] = in[i];\n=======\ny\n>>>>>>> REPLACE\n");
  auto failed = apply_edits(kKernel, edits);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.failure().kind, ReplyFailureKind::edit_not_found);  // the first failure's
  EXPECT_NE(failed.failure().message.find("block 1"), std::string::npos);
  EXPECT_NE(failed.failure().message.find("block 2 (line 6 of the reply): SEARCH text matches 2 places"),
            std::string::npos);
}

TEST(ApplyEdits, EmptyReplaceDeletesTheLines) {
  auto edited = apply_edits("a\nb\nc\n", parse_ok("<<<<<<< SEARCH\nb\n=======\n>>>>>>> REPLACE\n"));
  ASSERT_TRUE(edited.ok());
  EXPECT_EQ(edited->source, "a\nc\n");
}

TEST(ApplyEdits, TrailingWhitespaceTolerantMatchIsReported) {
  auto edited = apply_edits("x = 1;   \ny = 2;\t\nz = 3;\n",
                            parse_ok("<<<<<<< SEARCH\nx = 1;\ny = 2;\n=======\nxy = 3;\n>>>>>>> REPLACE\n"));
  ASSERT_TRUE(edited.ok()) << edited.failure().message;
  EXPECT_EQ(edited->source, "xy = 3;\nz = 3;\n");
  ASSERT_EQ(edited->notes.size(), 1U);
  EXPECT_EQ(edited->notes[0], "block 1 (line 1 of the reply): matched ignoring trailing whitespace");
  // Leading whitespace still counts.
  auto indented =
      apply_edits("  x = 1;\n", parse_ok("<<<<<<< SEARCH\n    x = 1;\n=======\nq\n>>>>>>> REPLACE\n"));
  ASSERT_FALSE(indented.ok());
  EXPECT_EQ(indented.failure().kind, ReplyFailureKind::edit_not_found);
}

TEST(ApplyEdits, CrlfSourceKeepsItsLineEndings) {
  auto edited = apply_edits("int a;\r\nint b;\r\nint c;\r\n",
                            parse_ok("<<<<<<< SEARCH\nint b;\n=======\nint b2;\nint b3;\n>>>>>>> REPLACE\n"));
  ASSERT_TRUE(edited.ok()) << edited.failure().message;
  EXPECT_EQ(edited->source, "int a;\r\nint b2;\r\nint b3;\r\nint c;\r\n");
  auto from_crlf_reply = apply_edits(
      "int a;\nint b;\n", parse_ok("<<<<<<< SEARCH\r\nint a;\r\n=======\r\nint z;\r\n>>>>>>> REPLACE\r\n"));
  ASSERT_TRUE(from_crlf_reply.ok());
  EXPECT_EQ(from_crlf_reply->source, "int z;\nint b;\n");
}

TEST(ApplyEdits, LastLineWithoutNewlineStillMatches) {
  auto edited = apply_edits("a\nlast", parse_ok("<<<<<<< SEARCH\nlast\n=======\nfinal\n>>>>>>> REPLACE\n"));
  ASSERT_TRUE(edited.ok()) << edited.failure().message;
  EXPECT_EQ(edited->source, "a\nfinal");
}

}  // namespace search_replace_test
}  // namespace kopt
