// make_generate_llm: the configured backend, its budget inside the response cache, and the API key kept
// apart so that it can be redacted from everything kopt stores or prints.
#include <cstdlib>

#include "kopt/generate.hpp"

namespace kopt {

Result<GenerateLlm> make_generate_llm(LlmConfig config, LlmLimits limits, LlmHooks hooks) {
  GenerateLlm llm;
  llm.kind = std::string(to_string(config.kind));
  llm.model = config.model;
  if (!config.api_key.empty()) {
    llm.secret = config.api_key;
  } else if (!config.api_key_env.empty()) {
    std::optional<std::string> value;
    if (hooks.getenv) {
      value = hooks.getenv(config.api_key_env);
    } else if (char const* text = std::getenv(config.api_key_env.c_str())) {  // NOLINT(concurrency-mt-unsafe)
      value = std::string(text);
    }
    llm.secret = value.value_or("");
  }
  // The cache goes outside the budget: a cached answer costs nothing and counts as no call.
  std::filesystem::path const cache_dir = config.cache_dir;
  config.cache_dir.clear();
  PriceTable const prices = config.prices;
  auto inner = make_llm_backend(config, std::move(hooks));
  if (!inner) return inner.error();
  llm.budget = std::make_shared<LlmBudget>(limits);
  auto backend = with_budget(std::move(inner).value(), llm.budget, prices, config.model);
  if (!cache_dir.empty()) backend = with_response_cache(std::move(backend), cache_dir);
  llm.backend = std::move(backend);
  return llm;
}

}  // namespace kopt
