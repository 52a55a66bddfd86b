// Smoke test over every fixture in tests/profile/fixtures (naming: fixtures/README.md): adding a
// captured file (h200_ncu_*.csv, h200_cuobjdump_*.txt, ...) is enough for it to be parsed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "fixture_files.hpp"
#include "kopt/profile.hpp"

namespace kopt {
namespace fixtures_test {

// Fixtures are smoke-tested by name: files starting with one of these prefixes...
constexpr std::array<std::string_view, 2> kOrigins{"h200_", "synthetic_"};

enum class Kind { ncu_csv, sass, unknown };

// ... are ncu CSV when the name contains "ncu", SASS when it contains "sass", "cuobjdump" or "nvdisasm".
Kind kind_of(std::string_view name) {
  if (name.find("ncu") != std::string_view::npos) return Kind::ncu_csv;
  for (std::string_view const word : {"sass", "cuobjdump", "nvdisasm"}) {
    if (name.find(word) != std::string_view::npos) return Kind::sass;
  }
  return Kind::unknown;
}

std::vector<std::filesystem::path> all_fixtures() {
  std::vector<std::filesystem::path> fixtures;
  for (auto const& entry : std::filesystem::directory_iterator(testing::fixture_dir())) {
    std::string const name = entry.path().filename().string();
    bool const ours = std::any_of(kOrigins.begin(), kOrigins.end(),
                                  [&](std::string_view origin) { return name.starts_with(origin); });
    if (entry.is_regular_file() && ours) fixtures.push_back(entry.path());
  }
  std::sort(fixtures.begin(), fixtures.end());
  return fixtures;
}

TEST(ProfileFixtures, EveryFixtureParses) {
  auto const fixtures = all_fixtures();
  int ncu = 0;
  int sass = 0;
  for (std::filesystem::path const& path : fixtures) {
    std::string const name = path.filename().string();
    SCOPED_TRACE(name);
    std::string const text = testing::read_fixture(path);
    Kind const kind = kind_of(name);
    if (kind == Kind::ncu_csv) {
      ++ncu;
      auto const rows = parse_ncu_raw_csv(text, name);
      ASSERT_TRUE(rows.ok()) << rows.error().message;
      ASSERT_FALSE(rows->empty());
      for (NcuKernelRow const& row : *rows) {
        EXPECT_FALSE(row.kernel_name.empty());
        EXPECT_FALSE(row.metrics.empty());
      }
    } else if (kind == Kind::sass) {
      ++sass;
      SassSummary const summary = parse_sass(text);
      ASSERT_FALSE(summary.functions.empty());
      for (SassFunction const& function : summary.functions)
        EXPECT_GT(function.instructions, 0) << function.name;
    } else {
      ADD_FAILURE()
          << "fixture name names no format: expected 'ncu', 'sass', 'cuobjdump' or 'nvdisasm' in it "
             "(tests/profile/fixtures/README.md)";
    }
  }
  // The synthetic fixtures are always there; captured ones add to these counts.
  EXPECT_GE(ncu, 3);
  EXPECT_GE(sass, 2);
}

}  // namespace fixtures_test
}  // namespace kopt
