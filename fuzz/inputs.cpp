// Generator parameters (include/kopt/inputs.hpp): the bytes as task.toml; when it parses, validate_generators
// reads every [buffers.*.generator] (kinds, numbers, expressions, keywords, structured targets), and for size
// cases whose buffers are small (at most 4096 elements in all) generate_inputs runs each generator.
// Seeds: the task.toml files, as for the task harness.
#include "kopt/inputs.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "kopt/task.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string const text(reinterpret_cast<char const*>(data), size);
  auto task = kopt::parse_task(text, "fuzz/task.toml", "/nonexistent/fuzz");
  if (!task || !kopt::validate_generators(*task)) return 0;
  for (auto const& size_case : task->sizes) {
    auto lengths = kopt::buffer_lengths(*task, size_case);
    if (!lengths) continue;
    std::size_t total = 0;
    for (std::size_t length : *lengths) total += length > 4096 ? 4097 : length;
    if (total <= 4096) (void)kopt::generate_inputs(*task, size_case, 1, 0, 1);
  }
  return 0;
}
