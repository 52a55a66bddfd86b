// The HTTP backends: one engine (transport, retries, errors, accounting) and one `Protocol` per API
// format (OpenAI Chat Completions, Anthropic Messages).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/llm.hpp"
#include "kopt/result.hpp"

namespace kopt::llm {

class Protocol {
 public:
  virtual ~Protocol() = default;
  virtual std::string_view name() const = 0;  // "openai", "anthropic"
  virtual std::string url(std::string const& base_url) const = 0;
  virtual std::vector<std::string> headers(std::string const& api_key) const = 0;
  virtual nlohmann::json body(LlmRequest const& request, std::string const& model) const = 0;
  // Text, finish reason, usage and model of a successful reply; errors name the missing field.
  virtual Result<LlmReply> parse(nlohmann::json const& reply) const = 0;
};

std::unique_ptr<Protocol> openai_protocol();
std::unique_ptr<Protocol> anthropic_protocol(std::string version);

struct HttpSettings {
  std::string base_url;  // without a trailing slash
  std::string model;
  std::string api_key;     // may be empty (local servers)
  std::string key_source;  // where the key came from, for the 401 message ("KOPT_LLM_API_KEY")
  LlmTimeouts timeouts;
  LlmRetryPolicy retries;
  PriceTable prices;
};

std::unique_ptr<LlmBackend> make_http_backend(std::unique_ptr<Protocol> protocol, HttpSettings settings,
                                              LlmHooks hooks);

}  // namespace kopt::llm
