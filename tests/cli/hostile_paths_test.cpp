// Paths a user may hand kopt that the file system cannot resolve: a folder inside a symbolic-link loop
// (found by fuzzing: `kopt init` died with "filesystem error: Too many levels of symbolic links", an
// internal error). Every command must answer with a clear error naming the path, exit code 2, never
// exit 4 ("this is a bug in kopt").
#include <gtest/gtest.h>

#include <filesystem>

#include "support/kopt_process.hpp"

namespace kopt {
namespace hostile_paths_test {

namespace fs = std::filesystem;

struct HostilePaths : test::KoptProcessTest {
  void SetUp() override {
    KoptProcessTest::SetUp();
    if (IsSkipped()) return;
    loop = dir.path() / "loop";
    fs::create_directory_symlink(dir.path() / "other", loop);
    fs::create_directory_symlink(loop, dir.path() / "other");
  }
  void expect_clear_error(std::string const& arguments) {
    auto const outcome = run("", arguments);
    EXPECT_EQ(outcome.exit_code, 2) << arguments << "\n" << outcome.err;
    EXPECT_EQ(outcome.err.find("bug in kopt"), std::string::npos) << arguments << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find(loop.string()), std::string::npos) << arguments << "\n" << outcome.err;
  }
  fs::path loop;
};

TEST_F(HostilePaths, ASymbolicLinkLoopIsAClearErrorForEveryCommandThatTakesAPath) {
  std::string const reference = std::string(KOPT_SOURCE_DIR) + "/suites/algebra/dot-f32/reference.cu";
  expect_clear_error("init " + reference + " -o " + (loop / "task").string());
  expect_clear_error("task check --compile-only " + loop.string());
  expect_clear_error("strategies " + loop.string());
  expect_clear_error("strategies --strategies " + loop.string());
  expect_clear_error("bench " + loop.string());
  expect_clear_error("runs --store " + (loop / "kopt.db").string());
}

}  // namespace hostile_paths_test
}  // namespace kopt
