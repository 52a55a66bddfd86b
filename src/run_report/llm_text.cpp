// Text pieces for a run report's LLM calls: cost, tokens, latency, the run's totals.
#include "run_report/llm_text.hpp"

#include <fmt/format.h>

namespace kopt::run_report_detail {
namespace {

std::string count_text(std::optional<std::int64_t> count) {
  return count ? std::to_string(*count) : std::string("?");
}

}  // namespace

std::string cost_text(std::optional<double> cost_usd) {
  if (!cost_usd) return "cost unknown";
  return *cost_usd >= 1.0 ? fmt::format("${:.2f}", *cost_usd) : fmt::format("${:.4f}", *cost_usd);
}

std::string latency_text(double latency_ms) {
  return latency_ms >= 1000.0 ? fmt::format("{:.1f} s", latency_ms / 1000.0)
                              : fmt::format("{:.0f} ms", latency_ms);
}

std::string llm_call_numbers(RunReportLlmCall const& call) {
  std::string text =
      fmt::format("{} · {} in / {} out tokens · {}", cost_text(call.cost_usd), count_text(call.input_tokens),
                  count_text(call.output_tokens), latency_text(call.latency_ms));
  if (call.from_cache) text += " · from cache";
  return text;
}

std::string llm_call_title(RunReportLlmCall const& call) {
  std::string text = call.role;
  if (!call.purpose.empty()) text += " · " + call.purpose;
  if (!call.model.empty()) {
    text += " · " + call.model;
    if (!call.backend.empty()) text += " (" + call.backend + ")";
  }
  return text;
}

std::string llm_totals_text(RunReportLlmTotals const& totals) {
  return fmt::format("LLM: {} call{} ({} failed), {}, {} tokens", totals.calls, totals.calls == 1 ? "" : "s",
                     totals.failed, cost_text(totals.cost_usd), totals.input_tokens + totals.output_tokens);
}

std::string one_line(std::string_view text, std::size_t max_bytes) {
  std::string line;
  line.reserve(text.size());
  for (char const c : text) {
    bool const line_break = c == '\n' || c == '\r';
    if (line_break && !line.empty() && line.back() == ' ') continue;  // "a\n\nb" reads "a b"
    line += line_break ? ' ' : c;
  }
  if (line.size() <= max_bytes) return line;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0U) == 0x80U) --cut;
  line.resize(cut);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + " ...";
}

}  // namespace kopt::run_report_detail
