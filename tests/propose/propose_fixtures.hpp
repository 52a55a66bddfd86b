// Shared by the propose tests: writing a small library or task into a temporary folder, and the spec of a
// c = a + b task whose length scalar is named `n` (or anything else, to check {{ARGi}}).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace kopt::test {

inline void write_file(std::filesystem::path const& path, std::string const& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string add_task_toml(std::string const& n) {
  return "name = \"add\"\ndescription = \"c = a + b\"\nfamily = \"elementwise\"\n[entry]\n"
         "signature = 'extern \"C\" void add(float* c, const float* a, const float* b, int " +
         n +
         ")'\n"
         "[buffers.c]\nlength = \"" +
         n + "\"\n[buffers.a]\nlength = \"" + n + "\"\n[buffers.b]\nlength = \"" + n +
         "\"\n[[sizes]]\nname = \"small\"\n" + n +
         " = 1000\n[reference]\nsource = \"reference.cu\"\n"
         "[launch]\ngrid = [\"ceil_div(" +
         n + ", 256)\"]\nblock = [\"256\"]\n";
}

}  // namespace kopt::test
