// Large-language-model backends: one interface, `LlmBackend::complete`, over an
// OpenAI-compatible Chat Completions server (vLLM, SGLang, llama.cpp, Ollama, OpenAI, DeepSeek,
// OpenRouter), the Anthropic Messages API, an external command, and recorded replies. Wrappers add a
// response cache on disk, a budget (calls, USD) and recording. Transport failures, HTTP errors and
// malformed replies are Errors with messages that name the endpoint and what went wrong; API keys never
// appear in them. See docs/llm.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/result.hpp"

namespace kopt {

struct LlmMessage {
  std::string role;  // "user" or "assistant"
  std::string text;
};

struct LlmRequest {
  std::string system;  // the system prompt; empty: none
  std::vector<LlmMessage> messages;
  std::string model;  // empty: the backend's configured model
  int max_tokens = 4096;
  std::optional<double> temperature;  // nullopt: the server's default
  std::vector<std::string> stop;
  int sample = 0;  // tells repeated draws of one request apart in the cache and replays; never sent
};

// Token counts as the API reports them (nullopt: not reported). input_tokens counts the whole prompt,
// cached_input_tokens the part of it read from the provider's prompt cache.
struct LlmUsage {
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
  std::optional<std::int64_t> cached_input_tokens;
  std::optional<std::int64_t> reasoning_tokens;  // included in output_tokens
};

struct LlmReply {
  std::string text;
  std::string finish_reason;  // as the API says it: "stop", "length", "end_turn", "max_tokens", ...
  LlmUsage usage;
  double latency_ms = 0;           // wall time of the call, retries and backoff included
  std::string backend;             // "openai", "anthropic", "command", "replay"
  std::string model;               // as the server reports it (else as requested)
  int attempts = 0;                // requests sent (0 for a cache hit or a replay)
  std::optional<double> cost_usd;  // nullopt: unknown (no price for the model, or no usage reported)
  bool from_cache = false;         // answered by the response cache: cost 0, nothing sent
};

class LlmBackend {
 public:
  virtual ~LlmBackend() = default;
  virtual Result<LlmReply> complete(LlmRequest const& request) = 0;
  // What, besides the request, decides the reply: kind, base URL or command, default model. Part of
  // the cache key. Never contains the API key.
  virtual std::string identity() const = 0;
};

// ---- prices --------------------------------------------------------------------------------------

struct LlmPrice {  // USD per million tokens
  double input = 0;
  double cached_input = 0;
  double output = 0;
};

struct PriceTable {
  std::map<std::string, LlmPrice> models;
  // The cost of a call; nullopt when the model has no price or the usage lacks input or output tokens.
  std::optional<double> cost(std::string const& model, LlmUsage const& usage) const;
};

// TOML: one table per model, `[models."gpt-4o-mini"] input = 0.15, cached_input = 0.075, output = 0.6`
// (cached_input defaults to input). `origin` names the file in errors.
Result<PriceTable> parse_price_table(std::string_view toml_text, std::string const& origin);
Result<PriceTable> load_price_table(std::filesystem::path const& path);

// ---- configuration and the factory ---------------------------------------------------------------

enum class LlmKind { openai, anthropic, command, replay };
std::string_view to_string(LlmKind kind) noexcept;
std::optional<LlmKind> llm_kind_from_string(std::string_view text) noexcept;

enum class CommandInput { json, text };  // what the external command reads on stdin
enum class ReplayOrder { in_order, by_request_hash };

struct LlmTimeouts {
  std::chrono::milliseconds connect{10'000};
  std::chrono::milliseconds idle{120'000};  // once the reply has started, no byte for this long aborts
  std::chrono::milliseconds overall{600'000};
};

struct LlmRetryPolicy {
  int max_attempts = 4;                                // 1: no retry
  std::chrono::milliseconds base_delay{1'000};         // full-jitter exponential backoff from here
  std::chrono::milliseconds max_delay{30'000};         // cap of one backoff step
  std::chrono::milliseconds max_retry_after{120'000};  // a longer Retry-After fails instead of waiting
};

struct LlmConfig {
  LlmKind kind = LlmKind::openai;
  std::string
      base_url;  // openai: e.g. http://localhost:8000/v1; anthropic: default https://api.anthropic.com
  std::string model;
  std::string api_key_env;           // name of the environment variable with the key ("": none)
  std::string api_key;               // explicit key, overrides api_key_env; never printed
  std::vector<std::string> command;  // kind command: argv (no shell); argv[0] is looked up on PATH
  CommandInput command_input = CommandInput::json;
  std::filesystem::path replay_file;  // kind replay: JSONL of recorded replies
  ReplayOrder replay_order = ReplayOrder::in_order;
  LlmTimeouts timeouts;
  LlmRetryPolicy retries;
  PriceTable prices;
  std::filesystem::path cache_dir;  // non-empty: wrap the backend in a response cache there
  std::string anthropic_version = "2023-06-01";
};

// What tests replace: sleeping between retries, the jitter's random numbers, the wall clock (for
// Retry-After dates) and the environment. Empty members take the real thing.
struct LlmHooks {
  std::function<void(std::chrono::milliseconds)> sleep;
  std::function<double()> uniform;  // in [0, 1)
  std::function<std::chrono::system_clock::time_point()> now;
  std::function<std::optional<std::string>(std::string const&)> getenv;
};

// A config from KOPT_LLM_BACKEND, KOPT_LLM_BASE_URL, KOPT_LLM_MODEL, KOPT_LLM_API_KEY (ANTHROPIC_API_KEY
// for anthropic), KOPT_LLM_COMMAND, KOPT_LLM_COMMAND_INPUT, KOPT_LLM_REPLAY_FILE, KOPT_LLM_*_TIMEOUT_S,
// KOPT_LLM_MAX_ATTEMPTS, KOPT_LLM_PRICES and KOPT_LLM_CACHE_DIR (docs/llm.md). Errors name the variable.
Result<LlmConfig> llm_config_from_env(LlmHooks const& hooks = {});
// Checks the config (errors name the setting and what was expected) and builds the backend.
Result<std::unique_ptr<LlmBackend>> make_llm_backend(LlmConfig const& config, LlmHooks hooks = {});

// ---- the backend registry ------------------------------------------------------------------------

// Builds one kind of backend from a checked config (timeouts and retries already checked; the hooks
// complete); errors name the setting that is missing or wrong.
using LlmBackendFactory = Result<std::unique_ptr<LlmBackend>> (*)(LlmConfig const& config,
                                                                  LlmHooks const& hooks);

// One backend: its name, what it needs, and how to build it. Listed once in src/llm/backend_registry.cpp;
// KOPT_LLM_BACKEND's choices, its error message, the configuration's check and the help read it.
struct LlmBackendInfo {
  LlmKind kind = LlmKind::openai;
  std::string_view name;              // KOPT_LLM_BACKEND's value
  std::string_view description;       // one line, for help and docs
  bool needs_network = false;         // reaches a server (KOPT_LLM_BASE_URL, timeouts, retries)
  bool needs_model = false;           // refuses to start without KOPT_LLM_MODEL
  bool needs_api_key = false;         // refuses to start without a key
  std::string_view api_key_env;       // where the key is read when KOPT_LLM_API_KEY is unset ("": none)
  std::string_view default_base_url;  // used when KOPT_LLM_BASE_URL is unset ("": none)
  LlmBackendFactory make = nullptr;
};

// The registry: every backend exactly once, in a fixed order (the order help lists them in).
std::span<LlmBackendInfo const> llm_backends() noexcept;
LlmBackendInfo const* find_llm_backend(std::string_view name) noexcept;
LlmBackendInfo const& llm_backend_info(LlmKind kind) noexcept;  // every kind is registered
// The names in registry order, joined by `separator`: "openai, anthropic, command, replay".
std::string llm_backend_names(std::string_view separator);

// ---- wrappers -----------------------------------------------------------------------------------

// SHA-256 of the canonical JSON of a request (every field, `sample` included): the key of replays.
std::string llm_request_hash(LlmRequest const& request);

// Answers a request seen before (same backend identity and request) from `dir` without calling `inner`;
// stores every successful reply. A hit has from_cache = true, cost_usd = 0 and attempts = 0.
std::unique_ptr<LlmBackend> with_response_cache(std::unique_ptr<LlmBackend> inner, std::filesystem::path dir);

// Appends {"request_sha256", "request", "reply"} per successful call to a JSONL file that the replay
// backend reads back.
std::unique_ptr<LlmBackend> with_recording(std::unique_ptr<LlmBackend> inner, std::filesystem::path file);

struct LlmLimits {
  std::optional<double> max_cost_usd;  // --max-cost
  std::optional<int> max_calls;        // --max-calls
};

enum class BudgetVerdict {
  allowed,
  calls_exhausted,  // max_calls calls were made
  cost_exhausted,   // the spend (plus the worst case of the next call, where known) would pass max_cost
  cost_unknown,     // max_cost is set but a call's cost was unknown (no price for its model)
};
std::string_view to_string(BudgetVerdict verdict) noexcept;

// Counts calls and spend; thread-safe. Calls answered by the cache never reach it (wrap the budgeted
// backend in the cache, not the other way round).
class LlmBudget {
 public:
  explicit LlmBudget(LlmLimits limits) : limits_(limits) {}
  // Whether one more call may start; `worst_case_usd` is the most the next call can cost, if known.
  BudgetVerdict check(std::optional<double> worst_case_usd = std::nullopt) const;
  // check() and, when allowed, counts the call as made.
  BudgetVerdict admit(std::optional<double> worst_case_usd = std::nullopt);
  void record(LlmReply const& reply);
  int calls() const;
  double spent_usd() const;
  std::string describe(BudgetVerdict verdict) const;  // a sentence naming the limit that stopped it
  LlmLimits const& limits() const noexcept { return limits_; }

 private:
  BudgetVerdict check_locked(std::optional<double> worst_case_usd) const;
  LlmLimits limits_;
  mutable std::mutex mutex_;
  int calls_ = 0;
  double spent_usd_ = 0;
  bool cost_unknown_ = false;
};

// Refuses a call the budget does not allow: an Error with ErrorCode::invalid_argument whose message
// starts with "LLM budget exhausted" (is_llm_budget_error). `prices` give the worst case of a call (its
// prompt and max_tokens of output) for requests naming no model, priced as `default_model`.
std::unique_ptr<LlmBackend> with_budget(std::unique_ptr<LlmBackend> inner, std::shared_ptr<LlmBudget> budget,
                                        PriceTable prices = {}, std::string default_model = {});
bool is_llm_budget_error(Error const& error) noexcept;

// `text` with every occurrence of `secret` (when 4 bytes or longer) replaced by "[redacted]".
std::string redact_secret(std::string text, std::string_view secret);

}  // namespace kopt
