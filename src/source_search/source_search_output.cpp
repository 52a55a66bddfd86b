// The kopt.optimize/1 document of a source search (`kopt optimize --proposer llm|mixed --json`) and the
// text `kopt optimize` prints after one.
#include <fmt/format.h>

#include "kopt/json_values.hpp"
#include "kopt/source_search.hpp"

namespace kopt {
namespace {

std::string ratio(std::optional<double> value) {
  return value ? fmt::format("{:.2f}x", *value) : "-";
}

nlohmann::json step_json(SourceStep const& step) {
  return {{"node", step.node},
          {"parent", step.parent ? nlohmann::json(*step.parent) : nlohmann::json(nullptr)},
          {"action", step.action},
          {"status", step.status},
          {"message", step.message},
          {"choice", step.choice},
          {"rationale", step.rationale},
          {"rounds", step.rounds},
          {"round_statuses", step.round_statuses},
          {"speedup", number_or_null(step.speedup)},
          {"evaluations", step.evaluations},
          {"llm_calls", step.llm_calls},
          {"cost_usd", step.cost_usd}};
}

}  // namespace

nlohmann::json source_search_to_json(SourceSearchResult const& result) {
  nlohmann::json json = {
      {"schema", "kopt.optimize/1"},
      {"run", result.run.value()},
      {"proposer", std::string(to_string(result.proposer))},
      {"points", result.evaluations},
      {"evaluated", result.evaluated},
      {"from_store", result.from_store},
      {"stop_reason", result.stop_reason},
      {"elapsed_seconds", result.elapsed_seconds},
      {"nodes", result.nodes.size()},
      {"llm",
       {{"calls", result.llm_calls}, {"cost_usd", result.cost_usd}, {"cost_complete", result.cost_complete}}},
      {"steps", nlohmann::json::array()},
      {"best", nullptr}};
  for (SourceStep const& step : result.steps) json["steps"].push_back(step_json(step));
  if (result.incumbent) {
    json["best"] = {
        {"candidate", result.incumbent->value()},
        {"node", result.incumbent_node ? nlohmann::json(*result.incumbent_node) : nlohmann::json(nullptr)},
        {"config", result.incumbent_config},
        {"screen_speedup", number_or_null(result.incumbent_screen_speedup)},
        {"confirmed_status", result.confirmed
                                 ? nlohmann::json(std::string(to_string(result.confirmed->status)))
                                 : nlohmann::json(nullptr)},
        {"confirmed_speedup",
         result.confirmed ? number_or_null(result.confirmed->geomean_speedup) : nlohmann::json(nullptr)}};
  }
  return json;
}

std::string render_source_search(SourceSearchResult const& result) {
  std::string text = fmt::format(
      "run {} ({} proposer): {} source nodes, {} evaluations ({} evaluated, {} from the store), stopped: "
      "{}\n",
      result.run.value(), to_string(result.proposer), result.nodes.size(), result.evaluations,
      result.evaluated, result.from_store, result.stop_reason);
  for (SourceStep const& step : result.steps) {
    std::string line =
        fmt::format("  node {:>2} <- {:<28} {}", step.node,
                    step.choice.empty() ? step.action : step.action + ": " + step.choice, step.status);
    if (step.speedup) line += " " + ratio(step.speedup);
    if (step.rounds > 1) line += fmt::format(" ({} coder rounds)", step.rounds);
    text += line + "\n";
  }
  text += fmt::format("LLM: {} calls, {}\n", result.llm_calls,
                      result.cost_complete ? fmt::format("${:.4f}", result.cost_usd) : "cost unknown");
  if (!result.incumbent) return text + "no kernel passed verification\n";
  text += fmt::format("best: node {} {} ({} on the screen tier)\n", result.incumbent_node.value_or(0),
                      result.incumbent_config, ratio(result.incumbent_screen_speedup));
  if (result.confirmed) {
    text += fmt::format("confirmed: {} {}\n", to_string(result.confirmed->status),
                        ratio(result.confirmed->geomean_speedup));
  }
  text += fmt::format("export it with: kopt export {} -o best.cu   (steps: kopt report {})\n",
                      result.run.value(), result.run.value());
  return text;
}

}  // namespace kopt
