// The price table: USD per million input, cached-input and output tokens per model.
#include <fstream>
#include <sstream>

#include "kopt/detail/toml.hpp"
#include "kopt/llm.hpp"

namespace kopt {

std::optional<double> PriceTable::cost(std::string const& model, LlmUsage const& usage) const {
  auto it = models.find(model);
  if (it == models.end() || !usage.input_tokens || !usage.output_tokens) return std::nullopt;
  LlmPrice const& price = it->second;
  auto const cached = static_cast<double>(usage.cached_input_tokens.value_or(0));
  auto const uncached = std::max(0.0, static_cast<double>(*usage.input_tokens) - cached);
  return (uncached * price.input + cached * price.cached_input +
          static_cast<double>(*usage.output_tokens) * price.output) /
         1e6;
}

Result<PriceTable> parse_price_table(std::string_view toml_text, std::string const& origin) {
  if (auto problem = detail::precheck_toml(toml_text)) {  // text toml++ 3.3 must not see
    return make_error(ErrorCode::invalid_spec, origin + ":" + std::to_string(problem->line) + ": " +
                                                   problem->what + "; expected " + problem->expected);
  }
  toml::table root;
  try {
    root = toml::parse(toml_text, origin);
  } catch (toml::parse_error const& error) {
    auto const& where = error.source().begin;
    return make_error(ErrorCode::invalid_spec,
                      origin + ":" + std::to_string(where.line) + ": " + std::string(error.description()));
  }
  PriceTable table;
  auto const* models = root["models"].as_table();
  if (models == nullptr) {
    return make_error(ErrorCode::invalid_spec,
                      origin +
                          ": expected a table [models.\"<model>\"] with input, cached_input and output "
                          "(USD per million tokens)");
  }
  for (auto const& [key, node] : *models) {
    std::string const model(key.str());
    std::string const where = origin + ": models.\"" + model + "\"";
    auto const* entry = node.as_table();
    if (entry == nullptr) return make_error(ErrorCode::invalid_spec, where + ": expected a table");
    auto number = [&](char const* field) -> Result<std::optional<double>> {
      auto const* value = entry->get(field);
      if (value == nullptr) return std::optional<double>();
      auto const parsed = value->value<double>();  // integers too
      if (!parsed || *parsed < 0) {
        return make_error(ErrorCode::invalid_spec,
                          where + "." + field + ": expected a non-negative number (USD per million tokens)");
      }
      return std::optional<double>(*parsed);
    };
    for (auto const& [field, unused] : *entry) {
      if (field.str() != "input" && field.str() != "cached_input" && field.str() != "output") {
        return make_error(ErrorCode::invalid_spec, where + ": unknown field '" + std::string(field.str()) +
                                                       "'; expected input, cached_input, output");
      }
    }
    auto input = number("input");
    auto cached = number("cached_input");
    auto output = number("output");
    for (auto const* value : {&input, &cached, &output}) {
      if (!*value) return value->error();
    }
    if (!*input || !*output) {
      return make_error(ErrorCode::invalid_spec, where + ": expected both input and output prices");
    }
    table.models[model] = LlmPrice{**input, cached->value_or(**input), **output};
  }
  return table;
}

Result<PriceTable> load_price_table(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorCode::io_error, "cannot read the price table " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return parse_price_table(text.str(), path.string());
}

}  // namespace kopt
