// llm_config_from_env: an LlmConfig from the KOPT_LLM_* environment variables.
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kopt/llm.hpp"

namespace kopt {
namespace {

Error env_error(std::string const& name, std::string const& expected, std::string const& got) {
  return make_error(ErrorCode::invalid_argument, name + ": expected " + expected + ", got '" + got + "'");
}

Result<std::chrono::milliseconds> seconds(std::string const& name, std::string const& text) {
  char* end = nullptr;
  double const value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(value) || value <= 0 || value > 86400) {
    return env_error(name, "a positive number of seconds (at most 86400)", text);
  }
  return std::chrono::milliseconds(static_cast<long long>(std::llround(value * 1000)));
}

Result<std::vector<std::string>> command_words(std::string const& text) {
  std::vector<std::string> argv;
  if (!text.empty() && text.front() == '[') {
    auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_array()) {
      return env_error("KOPT_LLM_COMMAND", "a JSON array of strings or words separated by spaces", text);
    }
    for (auto const& word : json) {
      if (!word.is_string()) {
        return env_error("KOPT_LLM_COMMAND", "a JSON array of strings (every element a string)", text);
      }
      argv.push_back(word.get<std::string>());
    }
    return argv;
  }
  std::istringstream words(text);
  for (std::string word; words >> word;) argv.push_back(word);
  return argv;
}

}  // namespace

Result<LlmConfig> llm_config_from_env(LlmHooks const& hooks) {
  auto get = [&](std::string const& name) -> std::optional<std::string> {
    if (hooks.getenv) return hooks.getenv(name);
    char const* value = std::getenv(name.c_str());  // NOLINT(concurrency-mt-unsafe)
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
  LlmConfig config;
  if (auto kind = get("KOPT_LLM_BACKEND")) {
    auto parsed = llm_kind_from_string(*kind);
    if (!parsed) return env_error("KOPT_LLM_BACKEND", "one of " + llm_backend_names(", "), *kind);
    config.kind = *parsed;
  }
  config.base_url = get("KOPT_LLM_BASE_URL").value_or("");
  config.model = get("KOPT_LLM_MODEL").value_or("");
  config.api_key_env = "KOPT_LLM_API_KEY";
  if (std::string_view const fallback = llm_backend_info(config.kind).api_key_env;
      !fallback.empty() && !get("KOPT_LLM_API_KEY"))
    config.api_key_env = fallback;
  if (auto command = get("KOPT_LLM_COMMAND")) {
    auto argv = command_words(*command);
    if (!argv) return argv.error();
    config.command = std::move(argv).value();
  }
  if (auto input = get("KOPT_LLM_COMMAND_INPUT")) {
    if (*input == "json") {
      config.command_input = CommandInput::json;
    } else if (*input == "text") {
      config.command_input = CommandInput::text;
    } else {
      return env_error("KOPT_LLM_COMMAND_INPUT", "json or text", *input);
    }
  }
  if (auto file = get("KOPT_LLM_REPLAY_FILE")) config.replay_file = *file;
  if (auto order = get("KOPT_LLM_REPLAY_ORDER")) {
    if (*order == "in_order") {
      config.replay_order = ReplayOrder::in_order;
    } else if (*order == "by_request_hash") {
      config.replay_order = ReplayOrder::by_request_hash;
    } else {
      return env_error("KOPT_LLM_REPLAY_ORDER", "in_order or by_request_hash", *order);
    }
  }
  std::pair<char const*, std::chrono::milliseconds*> const timeouts[] = {
      {"KOPT_LLM_CONNECT_TIMEOUT_S", &config.timeouts.connect},
      {"KOPT_LLM_IDLE_TIMEOUT_S", &config.timeouts.idle},
      {"KOPT_LLM_TIMEOUT_S", &config.timeouts.overall}};
  for (auto const& [name, into] : timeouts) {
    if (auto text = get(name)) {
      auto value = seconds(name, *text);
      if (!value) return value.error();
      *into = *value;
    }
  }
  if (auto attempts = get("KOPT_LLM_MAX_ATTEMPTS")) {
    char* end = nullptr;
    long const value = std::strtol(attempts->c_str(), &end, 10);
    if (end == attempts->c_str() || *end != '\0' || value < 1 || value > 100) {
      return env_error("KOPT_LLM_MAX_ATTEMPTS", "an integer from 1 to 100", *attempts);
    }
    config.retries.max_attempts = static_cast<int>(value);
  }
  if (auto prices = get("KOPT_LLM_PRICES")) {
    auto table = load_price_table(*prices);
    if (!table) {
      return make_error(table.error().code, "KOPT_LLM_PRICES: " + table.error().message);
    }
    config.prices = std::move(table).value();
  }
  if (auto dir = get("KOPT_LLM_CACHE_DIR")) config.cache_dir = *dir;
  return config;
}

}  // namespace kopt
