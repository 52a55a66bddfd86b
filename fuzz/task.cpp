// Task TOML (include/kopt/task.hpp): parse_task on the bytes as task.toml, then what every command does
// next with a parsed task: the tuning rules (every size case's scalars) and each buffer's length.
// Seeds: suites/*/*/task.toml, examples/*/task.toml, tests/**/task.toml.
#include "kopt/task.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "kopt/inputs.hpp"
#include "kopt/tuning.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string const text(reinterpret_cast<char const*>(data), size);
  auto task = kopt::parse_task(text, "fuzz/task.toml", "/nonexistent/fuzz");
  if (!task) return 0;
  (void)kopt::tuning_rules_for(*task);
  for (auto const& size_case : task->sizes) (void)kopt::buffer_lengths(*task, size_case);
  return 0;
}
