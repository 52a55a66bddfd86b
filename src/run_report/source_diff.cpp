// diff_sources: a unified line diff with 3 lines of context, computed by dtl (Debian's libdtl-dev).
#include <fmt/format.h>

#include <dtl/dtl.hpp>

#include "kopt/run_report.hpp"

namespace kopt {
namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t const end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.emplace_back(text.substr(start));
      break;
    }
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

char kind_of(dtl::edit_t type) {
  if (type == dtl::SES_ADD) return '+';
  if (type == dtl::SES_DELETE) return '-';
  return ' ';
}

}  // namespace

SourceDiff diff_sources(std::string_view before, std::string_view after) {
  SourceDiff diff;
  if (before == after) return diff;
  std::vector<std::string> const old_lines = lines_of(before);
  std::vector<std::string> const new_lines = lines_of(after);
  dtl::Diff<std::string, std::vector<std::string>> engine(old_lines, new_lines);
  engine.compose();
  engine.composeUnifiedHunks();
  for (auto const& hunk : engine.getUniHunks()) {
    DiffHunk out;
    out.header = fmt::format("@@ -{},{} +{},{} @@", hunk.a, hunk.b, hunk.c, hunk.d);
    for (auto const* part : {&hunk.common[0], &hunk.change, &hunk.common[1]}) {
      for (auto const& [line, info] : *part) out.lines.push_back(DiffLine{kind_of(info.type), line});
    }
    diff.hunks.push_back(std::move(out));
  }
  return diff;
}

std::string to_unified_text(SourceDiff const& diff) {
  std::string text;
  for (DiffHunk const& hunk : diff.hunks) {
    text += hunk.header;
    text += '\n';
    for (DiffLine const& line : hunk.lines) {
      text += line.kind;
      text += line.text;
      text += '\n';
    }
  }
  return text;
}

}  // namespace kopt
