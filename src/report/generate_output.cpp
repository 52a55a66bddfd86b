// What `kopt generate` shows: the kopt.generate/1 document and the table of attempts.
#include "kopt/generate_output.hpp"

#include <fmt/format.h>

#include "kopt/report.hpp"

namespace kopt {
namespace {

template <class T>
nlohmann::json optional_json(std::optional<T> const& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json attempt_json(GenerateAttempt const& a) {
  return {{"strategy", a.strategy},
          {"round", a.round},
          {"role", a.role},
          {"status", a.status},
          {"message", a.message},
          {"screen_speedup", optional_json(a.speedup)},
          {"candidate", a.candidate ? nlohmann::json(a.candidate->value()) : nlohmann::json(nullptr)},
          {"llm",
           {{"call", a.call ? nlohmann::json(a.call->value()) : nlohmann::json(nullptr)},
            {"input_tokens", optional_json(a.usage.input_tokens)},
            {"output_tokens", optional_json(a.usage.output_tokens)},
            {"cached_input_tokens", optional_json(a.usage.cached_input_tokens)},
            {"reasoning_tokens", optional_json(a.usage.reasoning_tokens)},
            {"cost_usd", optional_json(a.cost_usd)},
            {"latency_ms", a.latency_ms},
            {"from_cache", a.from_cache}}}};
}

std::string tokens_text(LlmUsage const& usage) {
  if (!usage.input_tokens && !usage.output_tokens) return "-";
  auto number = [](std::optional<std::int64_t> v) { return v ? std::to_string(*v) : std::string("?"); };
  return number(usage.input_tokens) + "/" + number(usage.output_tokens);
}

std::string cost_text(std::optional<double> cost) {
  return cost ? fmt::format("${:.4f}", *cost) : std::string("-");
}

}  // namespace

nlohmann::json generate_to_json(GenerateResult const& result) {
  nlohmann::json attempts = nlohmann::json::array();
  for (GenerateAttempt const& attempt : result.attempts) attempts.push_back(attempt_json(attempt));
  nlohmann::json json = {{"schema", "kopt.generate/1"},
                         {"run", result.run.value()},
                         {"strategies", result.strategies},
                         {"attempts", attempts},
                         {"best", nullptr},
                         {"confirmed", nullptr},
                         {"stop_reason", result.stop_reason},
                         {"llm_calls", result.llm_calls},
                         {"cost_usd", result.cost_usd},
                         {"cost_complete", result.cost_complete},
                         {"elapsed_seconds", result.elapsed_seconds}};
  if (result.best) {
    GenerateAttempt const& best = result.attempts.at(*result.best);
    json["best"] = {
        {"attempt", *result.best},
        {"strategy", best.strategy},
        {"round", best.round},
        {"candidate", best.candidate ? nlohmann::json(best.candidate->value()) : nlohmann::json()},
        {"screen_speedup", optional_json(result.best_screen_speedup)}};
  }
  if (result.confirmed) {
    json["confirmed"] = {{"status", std::string(to_string(result.confirmed->status))},
                         {"message", result.confirmed->message},
                         {"speedup", optional_json(result.confirmed->geomean_speedup)}};
  }
  return json;
}

std::string render_generate(GenerateResult const& result) {
  std::string text =
      fmt::format("{:>3}  {:<28} {:>5}  {:<9}  {:<18} {:>8}  {:>13}  {:>9}  {:>8}\n", "#", "strategy",
                  "round", "role", "status", "speedup", "tokens in/out", "cost", "latency");
  for (std::size_t i = 0; i < result.attempts.size(); ++i) {
    GenerateAttempt const& a = result.attempts[i];
    text += fmt::format("{:>3}  {:<28} {:>5}  {:<9}  {:<18} {:>8}  {:>13}  {:>9}  {:>8}\n", i + 1, a.strategy,
                        a.round, a.role, a.status, a.speedup ? format_ratio(*a.speedup) : "-",
                        tokens_text(a.usage), a.from_cache ? "cached" : cost_text(a.cost_usd),
                        a.call ? fmt::format("{:.1f} s", a.latency_ms / 1000.0) : "-");
  }
  text += fmt::format("LLM: {} calls, {}{}\n", result.llm_calls, cost_text(result.cost_usd),
                      result.cost_complete ? "" : " (some calls had no price: the total is a lower bound)");
  if (result.stop_reason != "done") text += "stopped early: " + result.stop_reason + "\n";
  if (result.best) {
    GenerateAttempt const& best = result.attempts.at(*result.best);
    text += fmt::format("best: {} (round {}), {} on the screen tier", best.strategy, best.round,
                        result.best_screen_speedup ? format_ratio(*result.best_screen_speedup) : "-");
    if (best.candidate) text += fmt::format(", candidate {}", best.candidate->value());
    text += "\n";
  } else {
    text += "no kernel passed verification\n";
  }
  if (result.confirmed) text += "confirmed: " + candidate_verdict(*result.confirmed) + "\n";
  return text;
}

}  // namespace kopt
