// Shared by the optimize tests: the vector_add task, its tunable kernel, and fake landscapes over it.
#pragma once

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "kopt/optimize.hpp"
#include "kopt/task.hpp"
#include "support/fake_candidate_evaluator.hpp"

namespace kopt::test {

inline std::filesystem::path const kTaskDir =
    std::filesystem::path(KOPT_SOURCE_DIR) / "examples" / "vector_add";
inline std::filesystem::path const kTunable = kTaskDir / "tunable" / "vector_add_tunable_kernel.cu";

inline std::string read_text(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::int64_t knob(std::map<std::string, std::string, std::less<>> const& knobs,
                         std::string const& name) {
  return std::stoll(knobs.at(name));
}

// A landscape with one peak (BLOCK=256, VEC=4, ITEMS=2 is best), two timed sizes, and failures at
// BLOCK=64 && ITEMS=8 (wrong output).
inline FakeResult landscape(std::map<std::string, std::string, std::less<>> const& knobs) {
  std::int64_t const block = knob(knobs, "BLOCK");
  std::int64_t const vec = knob(knobs, "VEC");
  std::int64_t const items = knob(knobs, "ITEMS");
  if (block == 64 && items == 8) return FakeResult{CandidateStatus::wrong_output, "mismatch at 17", {}, {}};
  double const distance = std::abs(std::log2(static_cast<double>(block)) - 8.0) +
                          std::abs(std::log2(static_cast<double>(vec)) - 2.0) +
                          std::abs(std::log2(static_cast<double>(items)) - 1.0) * 0.5;
  double const speedup = 3.0 / (1.0 + 0.3 * distance) + 0.001 * static_cast<double>(block % 7);
  return FakeResult{CandidateStatus::ok, "", {100.0 / speedup, 1000.0 / speedup}, {100.0, 1000.0}};
}

}  // namespace kopt::test
