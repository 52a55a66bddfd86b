// Strategy manifests (include/kopt/propose.hpp): load_strategy_library reads files, so the bytes are written
// to <tmp>/strategies/fuzz/strategies.toml (next to a common/strategy.cuh) and the library is loaded.
// Seeds: strategies/*/strategies.toml.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "kopt/propose.hpp"

namespace {
std::filesystem::path library_root() {
  static std::filesystem::path const root = [] {
    auto dir = std::filesystem::temp_directory_path() / ("kopt-fuzz-strategies-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir / "common");
    std::filesystem::create_directories(dir / "fuzz");
    std::ofstream(dir / "common" / "strategy.cuh") << "#pragma once\n";
    return dir;
  }();
  return root;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  auto const root = library_root();
  {
    std::ofstream manifest(root / "fuzz" / "strategies.toml", std::ios::binary | std::ios::trunc);
    manifest.write(reinterpret_cast<char const*>(data), static_cast<std::streamsize>(size));
  }
  (void)kopt::load_strategy_library(root);
  return 0;
}
