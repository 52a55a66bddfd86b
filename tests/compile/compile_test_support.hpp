// Shared helpers for the compile tests: a fresh cache folder per test and a Compiler on it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

#include "kopt/compile.hpp"
#include "support/temp_dir.hpp"

namespace kopt::testing {

using TempDir = kopt::test::TempDir;

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
