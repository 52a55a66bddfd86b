#include "cli/candidates.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace kopt::cli {
namespace candidates_test {

class Candidates : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kopt_cli_candidates_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "a");
    std::filesystem::create_directories(dir_ / "b");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(std::string const& relative, std::string const& text) {
    auto path = dir_ / relative;
    std::ofstream(path) << text;
    return path.string();
  }
  std::filesystem::path dir_;
};

TEST_F(Candidates, ReadsTextAndNamesByFileName) {
  auto first = write("a/fast.cu", "__global__ void k() {}\n");
  auto second = write("b/other.cu", "__global__ void k2() {}\n");
  auto sources = read_candidates({first, second});
  ASSERT_TRUE(sources.ok()) << sources.error().message;
  ASSERT_EQ(sources->size(), 2U);
  EXPECT_EQ((*sources)[0].name, "fast.cu");
  EXPECT_EQ((*sources)[0].source, "__global__ void k() {}\n");
  EXPECT_EQ((*sources)[0].path, first);
  EXPECT_EQ((*sources)[1].name, "other.cu");
}

TEST_F(Candidates, SameFileNameInTwoFoldersUsesThePaths) {
  auto first = write("a/cand.cu", "x");
  auto second = write("b/cand.cu", "y");
  auto sources = read_candidates({first, second});
  ASSERT_TRUE(sources.ok()) << sources.error().message;
  EXPECT_EQ((*sources)[0].name, first);
  EXPECT_EQ((*sources)[1].name, second);
}

TEST_F(Candidates, ProblemsAreNamedAndClassified) {
  auto missing = read_candidates({(dir_ / "nope.cu").string()});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  EXPECT_NE(missing.error().message.find("nope.cu"), std::string::npos);

  auto folder = read_candidates({(dir_ / "a").string()});
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().message.find("not a regular file"), std::string::npos);

  auto empty = read_candidates({write("a/empty.cu", "")});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().message.find("empty"), std::string::npos);

  auto file = write("a/k.cu", "x");
  auto twice = read_candidates({file, file});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("given twice"), std::string::npos);

  EXPECT_FALSE(read_candidates({}).ok());
}

}  // namespace candidates_test
}  // namespace kopt::cli
