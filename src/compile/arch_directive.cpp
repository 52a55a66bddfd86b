// requested_arch: the `// kopt:arch` line of a candidate.
#include "compile/arch_directive.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstddef>
#include <string_view>

#include "kopt/text.hpp"

namespace kopt::detail {
namespace {

constexpr std::string_view kMarker = "// kopt:arch";

}  // namespace

Result<std::string> requested_arch(std::string const& source, std::string const& target_arch) {
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start <= source.size()) {
    std::size_t end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    ++line_number;
    std::string_view const line = trim(std::string_view(source).substr(start, end - start));
    if (line.starts_with(kMarker) &&
        (line.size() == kMarker.size() || std::isspace(static_cast<unsigned char>(line[kMarker.size()])))) {
      std::string const value(trim(line.substr(kMarker.size())));
      std::string const variant = target_arch.ends_with('a') ? target_arch : target_arch + "a";
      if (value == target_arch || value == variant) return value;
      return make_error(ErrorCode::invalid_spec,
                        fmt::format("line {}: kopt:arch: expected {} or {} (the target and its "
                                    "architecture-specific variant), got '{}'",
                                    line_number, target_arch, variant, value));
    }
    start = end + 1;
  }
  return target_arch;
}

}  // namespace kopt::detail
