// nvcc for tests that compile CUDA sources without a GPU (recorded LLM replies, edited kernels).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "kopt/toolchain.hpp"

namespace kopt::test {

// Where nvcc is: $CUDACXX / PATH / the default toolkit folder.
inline std::optional<std::filesystem::path> nvcc_path() {
  if (char const* cudacxx = std::getenv("CUDACXX"); cudacxx != nullptr && std::filesystem::exists(cudacxx))
    return std::filesystem::path(cudacxx);
  if (auto found = find_program("nvcc")) return *found;
  if (std::filesystem::exists("/usr/local/cuda/bin/nvcc"))
    return std::filesystem::path("/usr/local/cuda/bin/nvcc");
  return std::nullopt;
}

// Writes `source` to <dir>/<stem>.cu and compiles it for sm_90 with -c; the command when it fails, else "".
inline std::string nvcc_compile_failure(std::filesystem::path const& nvcc, std::string const& source,
                                        std::filesystem::path const& dir, std::string const& stem) {
  std::filesystem::path const file = dir / (stem + ".cu");
  std::ofstream(file) << source;
  std::string const command = nvcc.string() + " -arch=sm_90 -std=c++17 -c " + file.string() + " -o " +
                              (dir / (stem + ".o")).string() + " 2>&1";
  return std::system(command.c_str()) == 0 ? std::string() : command;
}

}  // namespace kopt::test
