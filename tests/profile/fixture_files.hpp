// Reading the profiler output fixtures in tests/profile/fixtures (naming: fixtures/README.md).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kopt::testing {

inline std::filesystem::path fixture_dir() {
  return std::filesystem::path(KOPT_SOURCE_DIR) / "tests/profile/fixtures";
}

inline std::string read_fixture(std::filesystem::path const& path) {
  std::ifstream in(path.is_absolute() ? path : fixture_dir() / path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace kopt::testing
