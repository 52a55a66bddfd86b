// Small text helpers shared by the modules.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kopt {

// `text` with ASCII letters in lower case (other bytes unchanged): case-insensitive matching of tool
// output, compiler logs and model replies.
std::string ascii_lower(std::string_view text);

// The whole file as bytes; nullopt when it cannot be opened or read.
std::optional<std::string> read_text_file(std::filesystem::path const& path);

}  // namespace kopt
