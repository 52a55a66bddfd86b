// make_llm_backend: checks what every backend shares in an LlmConfig (timeouts, retries), then lets the
// registry's entry for its kind check the rest and build it; the built-in backends' own checks are here too.
#include <unistd.h>

#include <cstdlib>
#include <random>
#include <thread>

#include "kopt/llm.hpp"
#include "kopt/toolchain.hpp"
#include "llm/backends.hpp"
#include "llm/http_backend.hpp"

namespace kopt {
namespace {

Error config_error(std::string const& setting, std::string const& expected) {
  return make_error(ErrorCode::invalid_argument, "LLM config: " + setting + ": " + expected);
}

LlmHooks with_defaults(LlmHooks hooks) {
  if (!hooks.sleep) hooks.sleep = [](std::chrono::milliseconds delay) { std::this_thread::sleep_for(delay); };
  if (!hooks.uniform) {
    auto engine = std::make_shared<std::mt19937_64>(std::random_device{}());
    auto mutex = std::make_shared<std::mutex>();
    hooks.uniform = [engine, mutex] {
      std::lock_guard lock(*mutex);
      return std::uniform_real_distribution<double>(0.0, 1.0)(*engine);
    };
  }
  if (!hooks.now) hooks.now = [] { return std::chrono::system_clock::now(); };
  if (!hooks.getenv) {
    hooks.getenv = [](std::string const& name) -> std::optional<std::string> {
      char const* value = std::getenv(name.c_str());  // NOLINT(concurrency-mt-unsafe)
      if (value == nullptr || *value == '\0') return std::nullopt;
      return std::string(value);
    };
  }
  return hooks;
}

Status check_common(LlmConfig const& config) {
  using std::chrono::milliseconds;
  if (config.timeouts.connect <= milliseconds(0)) {
    return config_error("timeouts.connect (KOPT_LLM_CONNECT_TIMEOUT_S)", "expected a positive time");
  }
  if (config.timeouts.idle <= milliseconds(0)) {
    return config_error("timeouts.idle (KOPT_LLM_IDLE_TIMEOUT_S)", "expected a positive time");
  }
  if (config.timeouts.overall <= milliseconds(0)) {
    return config_error("timeouts.overall (KOPT_LLM_TIMEOUT_S)", "expected a positive time");
  }
  if (config.retries.max_attempts < 1) {
    return config_error("retries.max_attempts (KOPT_LLM_MAX_ATTEMPTS)",
                        "expected 1 or more, got " + std::to_string(config.retries.max_attempts));
  }
  if (config.retries.base_delay < milliseconds(0) || config.retries.max_delay < milliseconds(0)) {
    return config_error("retries.base_delay / retries.max_delay", "expected times of 0 or more");
  }
  return Ok{};
}

Result<std::string> checked_base_url(std::string url, std::string_view default_url) {
  if (url.empty()) url = default_url;
  if (url.empty()) {
    return config_error("base_url (KOPT_LLM_BASE_URL)",
                        "not set; expected the server's base URL, e.g. http://localhost:8000/v1 (vLLM), "
                        "http://localhost:11434/v1 (Ollama) or https://api.openai.com/v1");
  }
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    return config_error("base_url (KOPT_LLM_BASE_URL)",
                        "expected a URL starting with http:// or https://, got '" + url + "'");
  }
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

// The settings every HTTP backend needs, checked: base URL, model, and the key if there is one.
Result<llm::HttpSettings> http_settings(LlmConfig const& config, LlmHooks const& hooks) {
  auto base_url = checked_base_url(config.base_url, llm_backend_info(config.kind).default_base_url);
  if (!base_url) return base_url.error();
  if (config.model.empty()) {
    return config_error("model (KOPT_LLM_MODEL)", "not set; expected the model name the server serves");
  }
  llm::HttpSettings settings{*base_url,       config.model,   config.api_key, "",
                             config.timeouts, config.retries, config.prices};
  if (!settings.api_key.empty()) {
    settings.key_source = "the config's api_key";
  } else if (!config.api_key_env.empty()) {
    if (auto key = hooks.getenv(config.api_key_env)) {
      settings.api_key = *key;
      settings.key_source = config.api_key_env;
    }
  }
  return settings;
}

}  // namespace

namespace llm {

Result<std::unique_ptr<LlmBackend>> make_openai_backend(LlmConfig const& config, LlmHooks const& hooks) {
  auto settings = http_settings(config, hooks);
  if (!settings) return settings.error();
  return make_http_backend(openai_protocol(), std::move(settings).value(), hooks);
}

Result<std::unique_ptr<LlmBackend>> make_anthropic_backend(LlmConfig const& config, LlmHooks const& hooks) {
  auto settings = http_settings(config, hooks);
  if (!settings) return settings.error();
  if (settings->api_key.empty()) {
    std::string const where = config.api_key_env.empty() ? "api_key_env" : config.api_key_env;
    return config_error("api key (" + where + ")",
                        "not set; the Anthropic API needs a key: set ANTHROPIC_API_KEY or KOPT_LLM_API_KEY");
  }
  return make_http_backend(anthropic_protocol(config.anthropic_version), std::move(settings).value(), hooks);
}

Result<std::unique_ptr<LlmBackend>> make_command_backend_from_config(LlmConfig const& config,
                                                                     LlmHooks const& /*hooks*/) {
  if (config.command.empty() || config.command[0].empty()) {
    return config_error("command (KOPT_LLM_COMMAND)",
                        "not set; expected the command's argv, e.g. [\"my-llm\", \"--model\", \"x\"]");
  }
  std::vector<std::string> argv = config.command;
  if (argv[0].find('/') == std::string::npos) {
    auto found = find_program(argv[0]);
    if (!found) {
      return make_error(ErrorCode::not_found, "LLM config: command (KOPT_LLM_COMMAND): program '" + argv[0] +
                                                  "' not found on PATH");
    }
    argv[0] = found->string();
  } else if (::access(argv[0].c_str(), X_OK) != 0) {
    return make_error(ErrorCode::not_found,
                      "LLM config: command (KOPT_LLM_COMMAND): '" + argv[0] + "' is not an executable file");
  }
  return make_command_backend(CommandSettings{std::move(argv), config.command_input, config.timeouts.overall,
                                              config.model, config.prices});
}

Result<std::unique_ptr<LlmBackend>> make_replay_backend_from_config(LlmConfig const& config,
                                                                    LlmHooks const& /*hooks*/) {
  if (config.replay_file.empty()) {
    return config_error("replay_file (KOPT_LLM_REPLAY_FILE)", "not set; expected a JSONL file of replies");
  }
  return make_replay_backend(config.replay_file, config.replay_order);
}

}  // namespace llm

std::string_view to_string(LlmKind kind) noexcept {
  return llm_backend_info(kind).name;
}

std::optional<LlmKind> llm_kind_from_string(std::string_view text) noexcept {
  LlmBackendInfo const* backend = find_llm_backend(text);
  return backend ? std::optional<LlmKind>(backend->kind) : std::nullopt;
}

Result<std::unique_ptr<LlmBackend>> make_llm_backend(LlmConfig const& config, LlmHooks hooks) {
  hooks = with_defaults(std::move(hooks));
  if (auto status = check_common(config); !status) return status.error();
  auto backend = llm_backend_info(config.kind).make(config, hooks);
  if (!backend || config.cache_dir.empty()) return backend;
  return with_response_cache(std::move(backend).value(), config.cache_dir);
}

}  // namespace kopt
