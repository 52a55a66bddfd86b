// SEARCH/REPLACE edit blocks: parsing them out of a reply and applying them to the current kernel with
// exact (else trailing-whitespace-tolerant) unique matches, with messages written for the model.
#include <algorithm>

#include "kopt/llm_roles.hpp"
#include "kopt/text.hpp"
#include "llm/text_lines.hpp"

namespace kopt {
namespace {

std::string lf_only(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  return out;
}

std::string crlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32);
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

struct Line {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the '\n' (or the text's end)
  std::string_view stripped;
};

std::vector<Line> lines_of(std::string_view text) {
  std::vector<Line> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    auto const end = nl == std::string_view::npos ? text.size() : nl + 1;
    auto const content = text.substr(pos, (nl == std::string_view::npos ? text.size() : nl) - pos);
    lines.push_back(Line{pos, end, trim_end(content)});
    pos = end;
  }
  return lines;
}

std::size_t count_exact(std::string_view text, std::string_view search, std::size_t& first) {
  std::size_t count = 0;
  for (auto pos = text.find(search); pos != std::string_view::npos; pos = text.find(search, pos + 1)) {
    if (count == 0) first = pos;
    ++count;
  }
  return count;
}

std::string block_name(std::size_t index, SearchReplace const& edit) {
  std::string name = "block " + std::to_string(index + 1);
  if (edit.line > 0) name += " (line " + std::to_string(edit.line) + " of the reply)";
  return name;
}

std::string first_line_hint(std::string_view text, std::vector<Line> const& search_lines) {
  for (auto const& line : search_lines) {
    auto const content = line.stripped;
    auto const first = content.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    auto const needle = content.substr(first);
    if (text.find(needle) == std::string_view::npos) {
      return " (its line `" + std::string(needle) + "` is not in the kernel)";
    }
    return " (its first line occurs in the kernel, but the lines after it differ)";
  }
  return {};
}

}  // namespace

ReplyResult<std::vector<SearchReplace>> parse_search_replace(std::string_view reply) {
  enum class State { outside, search, replace };
  std::vector<SearchReplace> edits;
  State state = State::outside;
  SearchReplace current;
  int line_number = 0;
  auto malformed = [&](std::string const& what) {
    return ReplyFailure{ReplyFailureKind::malformed_edit,
                        "block " + std::to_string(edits.size() + 1) + " (line " +
                            std::to_string(current.line) + " of the reply): " + what +
                            "; each block is <<<<<<< SEARCH, the lines to find, =======, the new lines, "
                            ">>>>>>> REPLACE"};
  };
  for (std::string_view const raw : detail::split_lines(reply)) {
    auto const line = detail::strip_cr(raw);
    ++line_number;
    bool const search_marker = detail::is_edit_marker(line, '<', "SEARCH");
    switch (state) {
      case State::outside:
        if (search_marker) {
          current = SearchReplace{"", "", line_number};
          state = State::search;
        }
        break;
      case State::search:
        if (detail::is_edit_marker(line, '=', "")) {
          if (current.search.empty()) return malformed("the SEARCH text is empty; copy the lines to change");
          state = State::replace;
        } else if (search_marker || detail::is_edit_marker(line, '>', "REPLACE")) {
          return malformed("no ======= line between SEARCH and REPLACE");
        } else {
          current.search.append(line).append("\n");
        }
        break;
      case State::replace:
        if (detail::is_edit_marker(line, '>', "REPLACE")) {
          edits.push_back(std::move(current));
          current = SearchReplace{};
          state = State::outside;
        } else if (search_marker) {
          return malformed("no >>>>>>> REPLACE line before the next SEARCH");
        } else {
          current.replace.append(line).append("\n");
        }
        break;
    }
  }
  if (state == State::search) return malformed("the reply ends before the ======= line");
  if (state == State::replace) return malformed("the reply ends before the >>>>>>> REPLACE line");
  return edits;
}

ReplyResult<EditedSource> apply_edits(std::string_view source, std::vector<SearchReplace> const& edits) {
  bool const was_crlf = source.find("\r\n") != std::string_view::npos;
  std::string text = lf_only(source);
  bool const had_final_newline = text.empty() || text.back() == '\n';
  if (!had_final_newline) text += '\n';

  EditedSource result;
  std::optional<ReplyFailureKind> first_failure;
  std::string failures;
  auto fail = [&](ReplyFailureKind kind, std::string const& message) {
    if (!first_failure) first_failure = kind;
    failures += (failures.empty() ? "" : "\n") + message;
  };

  for (std::size_t i = 0; i < edits.size(); ++i) {
    auto const search = lf_only(edits[i].search);
    auto const replace = lf_only(edits[i].replace);
    auto const name = block_name(i, edits[i]);
    if (search.empty()) {
      fail(ReplyFailureKind::edit_not_found, name + ": the SEARCH text is empty; copy the lines to change");
      continue;
    }
    std::size_t first = 0;
    auto const exact = count_exact(text, search, first);
    if (exact == 1) {
      text.replace(first, search.size(), replace);
      continue;
    }
    if (exact > 1) {
      fail(ReplyFailureKind::edit_ambiguous,
           name + ": SEARCH text matches " + std::to_string(exact) + " places; include more context");
      continue;
    }
    // No exact match: whole lines, ignoring trailing whitespace.
    auto const lines = lines_of(text);
    auto const wanted = lines_of(search);
    std::vector<std::size_t> starts;
    for (std::size_t s = 0; s + wanted.size() <= lines.size(); ++s) {
      bool same = true;
      for (std::size_t k = 0; k < wanted.size() && same; ++k)
        same = lines[s + k].stripped == wanted[k].stripped;
      if (same) starts.push_back(s);
    }
    if (starts.size() == 1) {
      auto const begin = lines[starts.front()].begin;
      auto const end = lines[starts.front() + wanted.size() - 1].end;
      text.replace(begin, end - begin, replace);
      result.notes.push_back(name + ": matched ignoring trailing whitespace");
    } else if (starts.size() > 1) {
      fail(ReplyFailureKind::edit_ambiguous,
           name + ": SEARCH text matches " + std::to_string(starts.size()) +
               " places (ignoring trailing whitespace); include more context");
    } else {
      fail(ReplyFailureKind::edit_not_found,
           name + ": SEARCH text matches no place in the kernel" + first_line_hint(text, wanted) +
               "; it must match the current kernel exactly, whitespace included");
    }
  }
  if (first_failure) {
    return ReplyFailure{*first_failure, failures +
                                            "\nNo block was applied; send all the edits again with these "
                                            "blocks corrected against the current kernel."};
  }
  if (!had_final_newline && !text.empty() && text.back() == '\n') text.pop_back();
  result.source = was_crlf ? crlf(text) : std::move(text);
  return result;
}

}  // namespace kopt
