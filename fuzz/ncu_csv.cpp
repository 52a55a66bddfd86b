// Nsight Compute CSV (include/kopt/profile.hpp): parse_ncu_raw_csv on the bytes (raw and long formats,
// BOM, CRLF, ==PROF== lines), each row's metrics read back, and parse_ncu_number on every line.
// Seeds: tests/profile/fixtures/*.csv.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kopt/profile.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string_view const text(reinterpret_cast<char const*>(data), size);
  if (auto rows = kopt::parse_ncu_raw_csv(text)) {
    for (auto const& row : *rows) (void)row.metric("gpu__time_duration.sum");
  }
  for (std::size_t start = 0; start < text.size();) {
    std::size_t const end = text.find('\n', start);
    (void)kopt::parse_ncu_number(text.substr(start, end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return 0;
}
