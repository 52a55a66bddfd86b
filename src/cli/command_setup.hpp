// What the search commands (`kopt optimize`, `kopt generate`) check before they start the GPU or pay for a
// language model's first call; every failure here is the user's (exit code 2).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "kopt/generate.hpp"
#include "kopt/llm.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"

namespace kopt::cli {

// The task: loaded, its input generators checked, and --arch checked when given.
Result<TaskSpec> load_search_task(std::string const& task_dir, std::string const& arch);

struct CommandLlm {
  std::optional<std::filesystem::path> prompts_dir;  // --prompts, when given
  GenerateLlm llm;
};

// --prompts (or the default search) found, the backend configured from the KOPT_LLM_* environment, the
// limits in its budget.
Result<CommandLlm> command_llm(std::string const& prompts, LlmLimits limits);

}  // namespace kopt::cli
