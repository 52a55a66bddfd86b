// ptxas output (src/compile/ptxas_resources.hpp): parse_ptxas_resources on a `ptxas -v` log, for one
// architecture and for any, and max_resources over the entries. Seeds: tests/profile/fixtures/*ptxas*.txt.
#include <cstddef>
#include <cstdint>
#include <string>

#include "compile/ptxas_resources.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string const log(reinterpret_cast<char const*>(data), size);
  (void)kopt::detail::max_resources(kopt::detail::parse_ptxas_resources(log, "sm_90"));
  (void)kopt::detail::parse_ptxas_resources(log, "");
  return 0;
}
