// Shared helpers for the worker-client tests: a fresh folder per test and executable fake workers.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/temp_dir.hpp"

namespace kopt::worker::test_support {

using TempDir = kopt::test::TempDir;

// Writes `body` after a "#!/bin/sh" line to dir/name and makes it executable.
inline std::filesystem::path write_script(std::filesystem::path const& dir, std::string const& name,
                                          std::string const& body) {
  std::filesystem::path path = dir / name;
  {
    std::ofstream out(path, std::ios::binary);
    out << "#!/bin/sh\n" << body;
  }
  std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::replace);
  return path;
}

inline std::string read_text(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace kopt::worker::test_support
