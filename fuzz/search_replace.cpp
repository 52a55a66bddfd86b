// SEARCH/REPLACE edit blocks of an LLM reply (include/kopt/llm_roles.hpp): parse_search_replace on the
// reply, and parse_kernel_reply, which applies the blocks to a current source (apply_edits) or extracts
// the fenced kernel. Input: the reply, then a NUL byte, then the current source (no NUL: the reply is
// also the source). Seeds: prompts/*.md and the SEARCH/REPLACE examples of docs/llm.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kopt/llm_roles.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string_view const input(reinterpret_cast<char const*>(data), size);
  std::size_t const nul = input.find('\0');
  std::string_view const reply = input.substr(0, nul);
  std::string_view const source = nul == std::string_view::npos ? input : input.substr(nul + 1);
  (void)kopt::parse_search_replace(reply);
  (void)kopt::parse_kernel_reply(reply, source);
  return 0;
}
