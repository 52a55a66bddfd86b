// The registry of LLM backends: the one place to touch when adding a backend (besides its LlmKind value
// and its own file). Each entry says what the backend needs as fields, so that the environment's reader,
// the configuration's check and the help read them instead of comparing names.
#include <algorithm>
#include <array>

#include "kopt/llm.hpp"
#include "llm/backends.hpp"

namespace kopt {
namespace {

constexpr std::array kBackends = std::to_array<LlmBackendInfo>({
    {.kind = LlmKind::openai,
     .name = "openai",
     .description = "Chat Completions servers (vLLM, llama.cpp, Ollama, OpenAI)",
     .needs_network = true,
     .needs_model = true,
     .needs_api_key = false,
     .api_key_env = "",
     .default_base_url = "",
     .make = &llm::make_openai_backend},
    {.kind = LlmKind::anthropic,
     .name = "anthropic",
     .description = "the Anthropic Messages API",
     .needs_network = true,
     .needs_model = true,
     .needs_api_key = true,
     .api_key_env = "ANTHROPIC_API_KEY",
     .default_base_url = "https://api.anthropic.com",
     .make = &llm::make_anthropic_backend},
    {.kind = LlmKind::command,
     .name = "command",
     .description = "an external command: the request on stdin, the reply on stdout",
     .needs_network = false,
     .needs_model = false,
     .needs_api_key = false,
     .api_key_env = "",
     .default_base_url = "",
     .make = &llm::make_command_backend_from_config},
    {.kind = LlmKind::replay,
     .name = "replay",
     .description = "recorded replies from a JSONL file (tests and demos without a model)",
     .needs_network = false,
     .needs_model = false,
     .needs_api_key = false,
     .api_key_env = "",
     .default_base_url = "",
     .make = &llm::make_replay_backend_from_config},
});

}  // namespace

std::span<LlmBackendInfo const> llm_backends() noexcept {
  return kBackends;
}

LlmBackendInfo const* find_llm_backend(std::string_view name) noexcept {
  const auto* const it = std::ranges::find(kBackends, name, &LlmBackendInfo::name);
  return it == kBackends.end() ? nullptr : &*it;
}

LlmBackendInfo const& llm_backend_info(LlmKind kind) noexcept {
  const auto* const it = std::ranges::find(kBackends, kind, &LlmBackendInfo::kind);
  return it == kBackends.end() ? kBackends.front() : *it;  // unreachable: a test checks every kind is listed
}

std::string llm_backend_names(std::string_view separator) {
  std::string names;
  for (LlmBackendInfo const& backend : kBackends) {
    if (!names.empty()) names += separator;
    names += backend.name;
  }
  return names;
}

}  // namespace kopt
