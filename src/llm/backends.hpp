// Constructors of the backends that are not HTTP (the factory picks one by LlmConfig::kind).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kopt/llm.hpp"
#include "kopt/result.hpp"

namespace kopt::llm {

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
