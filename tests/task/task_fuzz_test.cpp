// Deterministic mutation fuzzing of the spec loader: whatever the text, parse_task returns a spec or an
// Error with a message; it never throws or crashes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kopt/task.hpp"

namespace kopt {
namespace task_fuzz_test {

std::filesystem::path data_dir(std::string const& name) {
  return std::filesystem::path(KOPT_SOURCE_DIR) / "tests" / "task" / "data" / name;
}

std::string read_text(std::filesystem::path const& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> const kTokens{"[",
                                       "]",
                                       "[[",
                                       "]]",
                                       "{",
                                       "}",
                                       "=",
                                       "\"",
                                       "'",
                                       "'''",
                                       "\"\"\"",
                                       ",",
                                       ".",
                                       "#",
                                       "\n",
                                       "\\",
                                       "nan",
                                       "inf",
                                       "-inf",
                                       "true",
                                       "1e999",
                                       "-1",
                                       "0",
                                       "3.5",
                                       "9223372036854775807",
                                       "-9223372036854775808",
                                       "\"TODO\"",
                                       "[sizes]",
                                       "[[sizes]]",
                                       "[buffers.x]",
                                       "length",
                                       "role",
                                       "dtype",
                                       "kind",
                                       "generator",
                                       "targets",
                                       "N*C",
                                       "ceil_div(",
                                       "(((((",
                                       "))",
                                       "1/0",
                                       "\"N*C\"",
                                       "extern \"C\"",
                                       "float*",
                                       "const",
                                       "**",
                                       "&",
                                       "int64_t",
                                       "\xff\xfe",
                                       "\xc3\x28",
                                       "1979-05-27",
                                       "{ kind = 1 }",
                                       "[]",
                                       "[[generators.A]]",
                                       "verify_only = true",
                                       "source = \"/\"",
                                       "source = \"\"",
                                       "libraries = [1]",
                                       "grid = []",
                                       "\t"};

std::string mutate(std::string text, std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return n == 0 ? std::size_t{0} : static_cast<std::size_t>(rng() % n); };
  int const count = 1 + static_cast<int>(rng() % 4);
  for (int m = 0; m < count; ++m) {
    switch (rng() % 7) {
      case 0:  // delete a span
        if (!text.empty()) {
          auto at = pick(text.size());
          text.erase(at, 1 + pick(8));
        }
        break;
      case 1: {  // duplicate a span
        auto at = pick(text.size());
        auto span = text.substr(at, 1 + pick(40));
        text.insert(pick(text.size() + 1), span);
        break;
      }
      case 2:  // flip a character
        if (!text.empty()) text[pick(text.size())] = static_cast<char>(rng() % 256);
        break;
      case 3:  // truncate
        text.resize(pick(text.size() + 1));
        break;
      case 4: {  // swap two lines
        std::vector<std::string> lines;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        if (lines.size() >= 2) std::swap(lines[pick(lines.size())], lines[pick(lines.size())]);
        text.clear();
        for (auto const& line : lines) text += line + "\n";
        break;
      }
      default:  // insert a token
        text.insert(pick(text.size() + 1), kTokens[pick(kTokens.size())]);
        break;
    }
  }
  return text;
}

TEST(TaskFuzz, MutatedSpecsNeverCrash) {
  std::mt19937_64 rng(20240601);
  int accepted = 0;
  int rejected = 0;
  for (std::string fixture : {"softmax", "spmv_csr", "gemm_bf16", "histogram"}) {
    auto dir = data_dir(fixture);
    std::string const original = read_text(dir / "task.toml");
    ASSERT_FALSE(original.empty()) << fixture;
    for (int iter = 0; iter < 1500; ++iter) {
      std::string text = mutate(original, rng);
      Result<TaskSpec> spec = Error{};
      ASSERT_NO_THROW(spec = parse_task(text, dir / "task.toml", dir)) << text;
      if (spec.ok()) {
        ++accepted;
        // An accepted spec is internally consistent.
        EXPECT_FALSE(spec->sizes.empty());
        EXPECT_EQ(spec->buffers.size() + spec->scalars.size(), spec->signature.params.size());
        for (auto const& size : spec->sizes) EXPECT_EQ(size.values.size(), spec->scalars.size());
      } else {
        ++rejected;
        EXPECT_FALSE(spec.error().message.empty()) << text;
        EXPECT_EQ(spec.error().code, ErrorCode::invalid_spec);
      }
    }
  }
  // Both outcomes occur, so the fuzzer exercises validation as well as the TOML parser.
  EXPECT_GT(accepted, 50);
  EXPECT_GT(rejected, 1000);
}

TEST(TaskFuzz, RandomBytesNeverCrash) {
  std::mt19937_64 rng(7);
  auto dir = data_dir("softmax");
  for (int iter = 0; iter < 2000; ++iter) {
    std::string text(rng() % 200, '\0');
    for (auto& c : text) c = static_cast<char>(rng() % 128);
    Result<TaskSpec> spec = Error{};
    ASSERT_NO_THROW(spec = parse_task(text, "random.toml", dir));
    if (!spec.ok()) {
      EXPECT_FALSE(spec.error().message.empty());
    }
  }
}

}  // namespace task_fuzz_test
}  // namespace kopt
