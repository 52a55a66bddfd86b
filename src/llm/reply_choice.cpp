// The planner's reply (a plan paragraph and `CHOICE: name`) and the judge's (`VERDICT: accept|reject`),
// read tolerantly: surrounding prose, markdown emphasis, list markers and backticks are ignored.

#include "kopt/llm_roles.hpp"
#include "kopt/text.hpp"
#include "llm/text_lines.hpp"

namespace kopt {
namespace {

std::string_view trim_chars(std::string_view text, std::string_view chars) {
  auto const first = text.find_first_not_of(chars);
  if (first == std::string_view::npos) return {};
  auto const last = text.find_last_not_of(chars);
  return text.substr(first, last - first + 1);
}

constexpr std::string_view kDecoration = " \t\r*_#>`\"'";

// The text after "<key>:" when the line, without decoration and list markers, starts with it.
std::optional<std::string_view> after_key(std::string_view line, std::string_view key) {
  auto text = trim_chars(line, kDecoration);
  if (text.size() > 2 && (text[0] == '-' || text[0] == '+') && text[1] == ' ')
    text = trim_chars(text.substr(2), kDecoration);
  if (text.size() <= key.size() || ascii_lower(text.substr(0, key.size())) != key) return std::nullopt;
  auto rest = trim_chars(text.substr(key.size()), " \t*_");
  if (rest.empty() || rest.front() != ':') return std::nullopt;
  return trim_chars(rest.substr(1), kDecoration);
}

// The last paragraph (lines between blank lines) of lines[0, end).
std::string last_paragraph(std::vector<std::string_view> const& lines, std::size_t end) {
  std::size_t stop = end;
  while (stop > 0 && trim_chars(lines[stop - 1], " \t\r").empty()) --stop;
  std::size_t start = stop;
  while (start > 0 && !trim_chars(lines[start - 1], " \t\r").empty()) --start;
  std::string out;
  for (std::size_t i = start; i < stop; ++i)
    out += (out.empty() ? "" : "\n") + std::string(trim_chars(lines[i], " \t\r"));
  return out;
}

}  // namespace

ReplyResult<PlannerReply> parse_planner_reply(std::string_view reply,
                                              std::vector<std::string> const& options) {
  auto const lines = detail::split_lines(reply);
  std::optional<std::size_t> choice_line;
  std::string choice;
  for (std::size_t i = lines.size(); i-- > 0;) {
    if (auto rest = after_key(lines[i], "choice")) {
      auto name = trim_chars(*rest, std::string(kDecoration) + ".,;");
      if (name.empty()) continue;
      choice_line = i;
      choice = std::string(name);
      break;
    }
  }
  if (!choice_line) {
    return ReplyFailure{
        ReplyFailureKind::no_choice,
        "the reply has no line `CHOICE: <name>`; end it with PLAN: <paragraph> and CHOICE: <name>"};
  }
  if (!options.empty()) {
    auto match = [&](std::string_view name) -> std::optional<std::string> {
      for (auto const& option : options) {
        if (ascii_lower(option) == ascii_lower(name)) return option;
      }
      return std::nullopt;
    };
    auto found = match(choice);
    if (!found) {  // "tune_block_size (because ...)": the first word
      auto const end = choice.find_first_of(" \t(,:;");
      if (end != std::string::npos) found = match(trim_chars(choice.substr(0, end), kDecoration));
    }
    if (!found) {
      std::string list;
      for (auto const& option : options) list += (list.empty() ? "" : ", ") + option;
      return ReplyFailure{ReplyFailureKind::unknown_choice,
                          "CHOICE names '" + choice + "', which is not an option; choose one of: " + list};
    }
    choice = *found;
  }
  std::string plan;
  for (std::size_t i = *choice_line; i-- > 0;) {
    if (auto rest = after_key(lines[i], "plan")) {
      plan = std::string(*rest);
      for (std::size_t k = i + 1; k < *choice_line; ++k) {
        auto const line = trim_chars(lines[k], " \t\r");
        if (!line.empty() || !plan.empty()) plan += (plan.empty() ? "" : "\n") + std::string(line);
      }
      break;
    }
  }
  if (plan.empty()) plan = last_paragraph(lines, *choice_line);
  plan = std::string(trim_chars(plan, " \t\r\n"));
  if (plan.empty()) {
    return ReplyFailure{
        ReplyFailureKind::no_plan,
        "the reply has a CHOICE but no plan; write PLAN: <one paragraph> before the CHOICE line"};
  }
  return PlannerReply{plan, choice};
}

ReplyResult<JudgeReply> parse_judge_reply(std::string_view reply) {
  auto const lines = detail::split_lines(reply);
  for (std::size_t i = lines.size(); i-- > 0;) {
    auto rest = after_key(lines[i], "verdict");
    if (!rest) continue;
    auto const end = rest->find_first_of(" \t:,.;-");
    auto const word = ascii_lower(trim_chars(rest->substr(0, end), kDecoration));
    if (word != "accept" && word != "reject") continue;
    JudgeReply judged;
    judged.accept = word == "accept";
    if (end != std::string_view::npos)
      judged.reason = std::string(trim_chars(rest->substr(end), " \t:,.;-*_`"));
    if (judged.reason.empty()) judged.reason = last_paragraph(lines, i);
    return judged;
  }
  return ReplyFailure{ReplyFailureKind::no_verdict,
                      "the reply has no line `VERDICT: accept` or `VERDICT: reject`; end it with one"};
}

}  // namespace kopt
