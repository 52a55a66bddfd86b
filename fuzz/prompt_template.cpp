// LLM configuration text (include/kopt/llm_roles.hpp, include/kopt/llm.hpp): a prompt template
// (parse_prompt_template: placeholders, {{#if}} blocks; then render_prompt_text of its parts with every
// placeholder filled) and, on the same bytes, a price table (parse_price_table, TOML). Seeds: prompts/*.md.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "kopt/llm.hpp"
#include "kopt/llm_roles.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string_view const text(reinterpret_cast<char const*>(data), size);
  if (auto prompt = kopt::parse_prompt_template(text, "fuzz.v1.md")) {
    std::map<std::string, std::string> values;
    for (auto const& name : kopt::prompt_placeholders()) values[name] = "x";
    (void)kopt::render_prompt_text(prompt->system, values, "fuzz.v1.md", prompt->system_line);
    (void)kopt::render_prompt_text(prompt->user, values, "fuzz.v1.md", prompt->user_line);
  }
  (void)kopt::parse_price_table(text, "fuzz-prices.toml");
  return 0;
}
