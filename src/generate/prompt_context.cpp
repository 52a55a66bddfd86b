// prompt_context_for_task: the task part of a generator or coder prompt, from a TaskSpec and the intent.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "kopt/generate.hpp"

namespace kopt {
namespace {

// The type the kernel computes in: the first output's element type, else the first buffer's.
DType main_dtype(TaskSpec const& task) {
  for (BufferSpec const& buffer : task.buffers) {
    if (is_compared(buffer.role)) return buffer.dtype;
  }
  return task.buffers.empty() ? DType::f32 : task.buffers.front().dtype;
}

std::vector<std::pair<DType, ToleranceSpec>> output_tolerances(TaskSpec const& task) {
  std::vector<std::pair<DType, ToleranceSpec>> tolerances;
  for (BufferSpec const& buffer : task.buffers) {
    if (!is_compared(buffer.role)) continue;
    bool const seen = std::any_of(tolerances.begin(), tolerances.end(),
                                  [&](auto const& entry) { return entry.first == buffer.dtype; });
    if (!seen) tolerances.emplace_back(buffer.dtype, task.tolerance_for(buffer.dtype));
  }
  return tolerances;
}

}  // namespace

Result<PromptContext> prompt_context_for_task(TaskSpec const& task, std::string const& intent,
                                              CandidateMode mode) {
  if (mode == CandidateMode::kernel && !task.launch) {
    return make_error(ErrorCode::invalid_argument,
                      "task '" + task.name + "' (" + task.spec_file.string() +
                          "): kernel mode needs the task's [launch] geometry; expected launcher mode or a "
                          "[launch] table");
  }
  std::ifstream in(task.reference.path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::not_found, "task '" + task.name + "' (" + task.spec_file.string() +
                                                "): [reference] source: cannot read " +
                                                task.reference.path.string());
  }
  std::stringstream reference;
  reference << in.rdbuf();

  PromptContext context;
  context.task_name = task.name;
  context.description = task.description;
  if (!intent.empty()) {
    if (!context.description.empty()) context.description += "\n\n";
    context.description += "What the user asks for: " + intent;
  }
  context.family = task.family;
  context.signature = task.signature;
  context.dtype = main_dtype(task);
  context.sizes = task.sizes;
  context.tolerances = output_tolerances(task);
  context.kernel_mode = mode == CandidateMode::kernel;
  // Relative to the task folder: the prompt names the file without the user's directories.
  auto const relative = task.reference.path.lexically_relative(task.dir);
  context.reference_path = relative.empty() || *relative.begin() == ".."
                               ? task.reference.path.filename().string()
                               : relative.string();
  context.reference_source = reference.str();
  return context;
}

}  // namespace kopt
