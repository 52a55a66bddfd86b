// Entry signatures (include/kopt/task.hpp): parse_signature on the bytes, as a task's `signature` field
// (`void softmax(float* out, const float* in, int N, int C)`). Seeds: the signature lines of every
// task.toml of suites/ and examples/.
#include <cstddef>
#include <cstdint>
#include <string>

#include "kopt/task.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  (void)kopt::parse_signature(std::string(reinterpret_cast<char const*>(data), size));
  return 0;
}
