// Text pieces for a run report's LLM calls, shared by the HTML and Markdown renderers (private to
// run_report).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "kopt/run_report.hpp"

namespace kopt::run_report_detail {

std::string cost_text(std::optional<double> cost_usd);  // "$0.0123", "$1.25"; "cost unknown" when unset
std::string latency_text(double latency_ms);            // "850 ms", "3.2 s"
// "$0.0042 · 1200 in / 800 out tokens · 3.2 s" (+ " · from cache"); token counts not reported are "?".
std::string llm_call_numbers(RunReportLlmCall const& call);
// "coder · softmax_warp_per_row, repair 1 · gpt-x (openai)": who was asked and for what.
std::string llm_call_title(RunReportLlmCall const& call);
// "LLM: 3 calls (1 failed), $0.0123, 4567 tokens" (the cost reads "cost unknown" unless every call has
// a price; tokens are input plus output).
std::string llm_totals_text(RunReportLlmTotals const& totals);
// `text` on one line (line breaks as spaces), cut to at most `max_bytes` bytes on a UTF-8 boundary with "
// ...".
std::string one_line(std::string_view text, std::size_t max_bytes);

}  // namespace kopt::run_report_detail
