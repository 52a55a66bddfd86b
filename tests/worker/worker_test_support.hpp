// Shared helpers for the worker-client tests: a fresh folder per test and executable fake workers.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kopt::worker::test_support {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("kopt_worker_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(TempDir const&) = delete;
  TempDir& operator=(TempDir const&) = delete;
  std::filesystem::path const& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Writes `body` after a "#!/bin/sh" line to dir/name and makes it executable.
inline std::filesystem::path write_script(std::filesystem::path const& dir, std::string const& name,
                                          std::string const& body) {
  std::filesystem::path const path = dir / name;
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
