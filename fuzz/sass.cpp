// SASS text (include/kopt/profile.hpp): parse_sass on `cuobjdump -sass` or `nvdisasm` output.
// Seeds: tests/profile/fixtures/*sass*.txt and *nvdisasm*.txt.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kopt/profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  (void)kopt::parse_sass(std::string_view(reinterpret_cast<char const*>(data), size));
  return 0;
}
