// Shared helpers for the compile tests: a fresh cache folder per test and a Compiler on it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

#include "kopt/compile.hpp"

namespace kopt::testing {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("kopt_compile_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
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

inline Compiler make_compiler(std::filesystem::path const& cache_dir, CompileOptions options = {}) {
  options.cache_dir = cache_dir;
  auto compiler = Compiler::create(options);
  if (!compiler) ADD_FAILURE() << compiler.error().message;
  return std::move(compiler.value());
}

inline CompileRequest kernel_request(std::string source, std::string entry, std::string origin = "cand.cu") {
  CompileRequest request;
  request.mode = CandidateMode::kernel;
  request.source = std::move(source);
  request.entry = std::move(entry);
  request.origin = std::move(origin);
  return request;
}

}  // namespace kopt::testing
