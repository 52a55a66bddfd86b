#include "cli/command_setup.hpp"

#include <utility>

#include "cli/options.hpp"
#include "kopt/inputs.hpp"
#include "kopt/llm_roles.hpp"

namespace kopt::cli {

Result<TaskSpec> load_search_task(std::string const& task_dir, std::string const& arch) {
  auto task = load_task(task_dir);
  if (!task) return task.error();
  if (auto generators = validate_generators(*task); !generators) return generators.error();
  if (!arch.empty()) {
    if (auto status = check_arch(arch); !status) return status.error();
  }
  return task;
}

Result<CommandLlm> command_llm(std::string const& prompts, LlmLimits limits) {
  CommandLlm out;
  if (!prompts.empty()) out.prompts_dir = std::filesystem::path(prompts);
  if (auto found = find_prompts_dir(out.prompts_dir); !found) return found.error();
  auto config = llm_config_from_env();
  if (!config) return config.error();
  auto llm = make_generate_llm(*config, limits);
  if (!llm) return llm.error();
  out.llm = std::move(*llm);
  return out;
}

}  // namespace kopt::cli
