// The other LLM replies (include/kopt/llm_roles.hpp): the fenced kernel (extract_kernel), the prose
// (reply_prose, cut on a UTF-8 boundary), the planner's PLAN/CHOICE (with and without a list of options)
// and the judge's VERDICT. Seeds: prompts/*.md and docs/llm.md.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/llm_roles.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string_view const reply(reinterpret_cast<char const*>(data), size);
  (void)kopt::extract_kernel(reply);
  (void)kopt::reply_prose(reply);
  (void)kopt::reply_prose(reply, 7);
  (void)kopt::parse_planner_reply(reply);
  (void)kopt::parse_planner_reply(reply, std::vector<std::string>{"softmax_warp_per_row", "tiled", "Tiled"});
  (void)kopt::parse_judge_reply(reply);
  return 0;
}
