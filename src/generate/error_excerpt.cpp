// Error excerpts for repair prompts: status, message, compiler log and failing size cases, trimmed.
#include <fmt/format.h>

#include "kopt/generate.hpp"

namespace kopt {

std::string head_lines(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::string kept;
  std::size_t position = 0;
  while (position < text.size()) {
    std::size_t end = text.find('\n', position);
    end = end == std::string_view::npos ? text.size() : end + 1;
    if (kept.size() + (end - position) > max_bytes) {
      if (kept.empty()) kept = std::string(text.substr(0, max_bytes)) + "\n";  // one very long line
      break;
    }
    kept.append(text.substr(position, end - position));
    position = end;
  }
  std::string_view const rest = text.substr(position);
  std::size_t left_out = 0;
  for (char const c : rest) left_out += c == '\n' ? 1 : 0;
  if (!rest.empty() && rest.back() != '\n') ++left_out;
  return kept + fmt::format("[... {} more lines left out ...]\n", left_out);
}

std::string error_excerpt(CandidateReport const& report, std::size_t max_bytes) {
  std::string text = fmt::format("status: {}\n", to_string(report.status));
  if (!report.message.empty()) text += report.message + "\n";
  if (!report.diagnostics.empty()) text += "compiler output:\n" + report.diagnostics + "\n";
  for (SizeResult const& size : report.sizes) {
    if (size.status == CandidateStatus::ok) continue;
    text += fmt::format("size {}: {}", size.size, to_string(size.status));
    if (size.status == CandidateStatus::wrong_output) {
      text += fmt::format(" (max abs error {:.3g}, max rel error {:.3g}, {} mismatches)", size.max_abs_err,
                          size.max_rel_err, size.mismatches);
    }
    if (!size.message.empty() && size.message != report.message) text += ": " + size.message;
    text += "\n";
  }
  return head_lines(text, max_bytes);
}

}  // namespace kopt
