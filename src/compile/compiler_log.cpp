// trim_compiler_log: the part of a compiler log that a person needs to fix a candidate.
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kopt/compile.hpp"
#include "kopt/text.hpp"

namespace kopt {
namespace {

std::vector<std::string> split_lines(std::string const& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

bool is_blank(std::string const& line) {
  return line.find_first_not_of(" \t") == std::string::npos;
}

bool mentions_error(std::string const& lowered) {
  return lowered.find("error") != std::string::npos || lowered.find("fatal") != std::string::npos;
}

// "cand.cu(12): ..." (nvcc, NVRTC) or "cand.cu:12:" (gcc, ld).
bool has_location(std::string const& line) {
  static RE2 const paren_location(R"([^\s():]+\(\d+\):)", RE2::Latin1);
  static RE2 const colon_location(R"([^\s:]+:\d+:)", RE2::Latin1);
  return RE2::PartialMatch(line, paren_location) || RE2::PartialMatch(line, colon_location);
}

// A line with only spaces and a caret: NVRTC/nvcc mark the column under the echoed source line.
bool is_caret_line(std::string const& line) {
  auto const first = line.find_first_not_of(" \t");
  return first != std::string::npos && line[first] == '^' && is_blank(line.substr(first + 1));
}

}  // namespace

std::string trim_compiler_log(std::string const& log, std::size_t max_lines) {
  std::vector<std::string> const lines = split_lines(log);
  std::vector<bool> keep(lines.size(), false);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string const lowered = ascii_lower(lines[i]);
    bool const error = mentions_error(lowered);
    if (!error && lowered.find("warning") == std::string::npos && !has_location(lines[i])) continue;
    keep[i] = true;
    if (!error) continue;
    // Context: the source line the compiler echoes after an error, and its caret marker.
    if (i + 1 < lines.size() && !is_blank(lines[i + 1])) {
      keep[i + 1] = true;
      if (i + 2 < lines.size() && is_caret_line(lines[i + 2])) keep[i + 2] = true;
    }
  }
  std::vector<std::string const*> kept;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (keep[i]) kept.push_back(&lines[i]);
  }
  std::string result;
  std::size_t const shown = std::min(kept.size(), max_lines);
  for (std::size_t i = 0; i < shown; ++i) {
    result += *kept[i];
    result += '\n';
  }
  if (kept.size() > shown) result += fmt::format("... {} more lines\n", kept.size() - shown);
  return result;
}

}  // namespace kopt
