// The kernel in a generator's or coder's reply: fenced blocks, the one that holds the kernel, or the
// SEARCH/REPLACE edits applied to the current kernel.
#include <algorithm>
#include <array>
#include <cctype>

#include "kopt/llm_roles.hpp"
#include "kopt/text.hpp"
#include "llm/text_lines.hpp"

namespace kopt {
namespace {

std::string language_of(std::string_view info) {
  auto const first = info.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  auto const end = info.find_first_of(" \t{", first);
  std::string tag(info.substr(first, end == std::string_view::npos ? std::string_view::npos : end - first));
  std::transform(tag.begin(), tag.end(), tag.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  return tag;
}

bool is_code_language(std::string_view tag) {
  static constexpr std::array<std::string_view, 11> tags = {"",   "cuda", "cu",  "cuh", "cpp", "c++",
                                                            "cc", "c",    "cxx", "h",   "hpp"};
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

}  // namespace

std::string_view to_string(ReplyFailureKind kind) noexcept {
  switch (kind) {
    case ReplyFailureKind::no_code: return "no_code";
    case ReplyFailureKind::unclosed_fence: return "unclosed_fence";
    case ReplyFailureKind::malformed_edit: return "malformed_edit";
    case ReplyFailureKind::edit_not_found: return "edit_not_found";
    case ReplyFailureKind::edit_ambiguous: return "edit_ambiguous";
    case ReplyFailureKind::no_plan: return "no_plan";
    case ReplyFailureKind::no_choice: return "no_choice";
    case ReplyFailureKind::unknown_choice: return "unknown_choice";
    case ReplyFailureKind::no_verdict: return "no_verdict";
  }
  return "unknown";
}

std::vector<FencedBlock> fenced_blocks(std::string_view reply) {
  std::vector<FencedBlock> blocks;
  std::optional<FencedBlock> open;
  std::size_t open_length = 0;
  int line_number = 0;
  for (std::string_view const raw : detail::split_lines(reply)) {
    auto const line = detail::strip_cr(raw);
    ++line_number;
    std::string_view info;
    auto const length = detail::fence_length(line, &info);
    if (!open) {
      if (length > 0) {
        open = FencedBlock{language_of(info), "", line_number, true};
        open_length = length;
      }
      continue;
    }
    if (length >= open_length && is_blank(info)) {
      blocks.push_back(std::move(*open));
      open.reset();
      continue;
    }
    open->code.append(line).append("\n");
  }
  if (open) {
    open->closed = false;
    blocks.push_back(std::move(*open));
  }
  return blocks;
}

ReplyResult<std::string> extract_kernel(std::string_view reply) {
  auto const blocks = fenced_blocks(reply);
  if (!blocks.empty() && !blocks.back().closed && is_code_language(blocks.back().language)) {
    return ReplyFailure{ReplyFailureKind::unclosed_fence,
                        "the reply ends inside the code block opened on its line " +
                            std::to_string(blocks.back().first_line) +
                            " (cut short?); send the complete kernel in one closed ```cuda block"};
  }
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    if (it->closed && is_code_language(it->language) && !is_blank(it->code)) return it->code;
  }
  if (blocks.size() == 1 && blocks.front().closed && !is_blank(blocks.front().code))
    return blocks.front().code;
  return ReplyFailure{ReplyFailureKind::no_code,
                      blocks.empty()
                          ? "the reply holds no code: send the complete kernel in one ```cuda block, or "
                            "SEARCH/REPLACE blocks against the current kernel"
                          : "the reply holds no ```cuda (or ```cpp) block with code: send the complete "
                            "kernel in one ```cuda block"};
}

ReplyResult<KernelReply> parse_kernel_reply(std::string_view reply, std::string_view current_source) {
  auto edits = parse_search_replace(reply);
  if (!edits) return edits.failure();
  if (!edits->empty()) {
    if (current_source.empty()) {
      return ReplyFailure{
          ReplyFailureKind::no_code,
          "the reply holds SEARCH/REPLACE blocks but there is no current kernel to edit; send the "
          "complete kernel in one ```cuda block"};
    }
    auto edited = apply_edits(current_source, *edits);
    if (!edited) return edited.failure();
    return KernelReply{edited->source, true, edited->notes};
  }
  auto code = extract_kernel(reply);
  if (!code) return code.failure();
  return KernelReply{*code, false, {}};
}

}  // namespace kopt
