// Small text helpers shared by the modules.
#pragma once

#include <string>
#include <string_view>

namespace kopt {

// `text` with ASCII letters in lower case (other bytes unchanged): case-insensitive matching of tool
// output, compiler logs and model replies.
std::string ascii_lower(std::string_view text);

}  // namespace kopt
