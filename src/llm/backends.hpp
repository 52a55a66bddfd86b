// What the backend registry (backend_registry.cpp) lists: for each backend, the factory that checks its
// part of an LlmConfig and builds it (factory.cpp); and the constructors of the backends that are not HTTP.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kopt/llm.hpp"
#include "kopt/result.hpp"

namespace kopt::llm {

// The registry's factories, one per backend (LlmBackendFactory); errors name the setting.
Result<std::unique_ptr<LlmBackend>> make_openai_backend(LlmConfig const& config, LlmHooks const& hooks);
Result<std::unique_ptr<LlmBackend>> make_anthropic_backend(LlmConfig const& config, LlmHooks const& hooks);
Result<std::unique_ptr<LlmBackend>> make_command_backend_from_config(LlmConfig const& config,
                                                                     LlmHooks const& hooks);
Result<std::unique_ptr<LlmBackend>> make_replay_backend_from_config(LlmConfig const& config,
                                                                    LlmHooks const& hooks);

// Reads the whole JSONL file now; errors name file:line and the field.
Result<std::unique_ptr<LlmBackend>> make_replay_backend(std::filesystem::path const& file, ReplayOrder order);

struct CommandSettings {
  std::vector<std::string> argv;  // argv[0] resolved to a path
  CommandInput input = CommandInput::json;
  std::chrono::milliseconds timeout{600'000};
  std::string model;
  PriceTable prices;
};
std::unique_ptr<LlmBackend> make_command_backend(CommandSettings settings);

}  // namespace kopt::llm
