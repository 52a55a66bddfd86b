// Whether a path is a regular file this process may execute (shared by the program finders).
#pragma once

#include <filesystem>

namespace kopt {

bool is_executable_file(std::filesystem::path const& path);

}  // namespace kopt
