// `kopt import-torch`'s arguments (src/eval/torch_import.cpp): what the importer would refuse before it reads
// the problem is refused by kopt itself, with the importer's own message, before any Python starts (starting
// Python and importing torch takes seconds: the command-line property test spent two thirds of its time
// there, on paths that do not exist). KOPT_PYTHON names no program here, so a check that came after
// looking for Python would fail with the environment's error instead.
#include "kopt/torch_import.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "support/temp_dir.hpp"

namespace kopt {
namespace torch_import_test {

class TorchImportArguments : public ::testing::Test {
 protected:
  void SetUp() override {
    if (char const* old = std::getenv("KOPT_PYTHON"); old != nullptr) saved_ = old;
    setenv("KOPT_PYTHON", (scratch_.path() / "no-python-here").c_str(), 1);
    problem_ = scratch_.path() / "problem.py";
    std::ofstream(problem_) << "import torch\n";
  }
  void TearDown() override {
    if (saved_) {
      setenv("KOPT_PYTHON", saved_->c_str(), 1);
    } else {
      unsetenv("KOPT_PYTHON");
    }
  }
  // The error of importing `problem` into `out` (a test failure when the import succeeds).
  Error refusal(std::filesystem::path const& problem, std::filesystem::path const& out,
                TorchImportOptions const& options = {}) {
    auto imported = import_torch_problem(problem, out, options);
    EXPECT_FALSE(imported.ok());
    return imported.ok() ? Error{} : imported.error();
  }

  test::TempDir scratch_;
  std::filesystem::path problem_;
  std::optional<std::string> saved_;
};

TEST_F(TorchImportArguments, AMissingProblemFileIsNamedBeforePythonIsLookedFor) {
  Error const error = refusal(scratch_.path() / "nothere.py", scratch_.path() / "out");
  EXPECT_EQ(error.code, ErrorCode::invalid_spec);
  EXPECT_EQ(error.message, (scratch_.path() / "nothere.py").string() + ": no such problem file");
  // A folder is not a problem file either.
  EXPECT_EQ(refusal(scratch_.path(), scratch_.path() / "out").message,
            scratch_.path().string() + ": no such problem file");
}

TEST_F(TorchImportArguments, AnOutputThatIsAFileOrAFullFolderWithoutForceIsRefused) {
  EXPECT_EQ(refusal(problem_, problem_).message, problem_.string() + ": exists and is not a folder");
  std::filesystem::path const full = scratch_.path() / "full";
  std::filesystem::create_directories(full);
  std::ofstream(full / "task.toml") << "name = \"x\"\n";
  EXPECT_EQ(refusal(problem_, full).message,
            full.string() + ": folder exists and is not empty; pass --force to overwrite");
  // With --force the arguments are fine: what fails then is finding Python (KOPT_PYTHON names nothing).
  TorchImportOptions forced;
  forced.force = true;
  Error const after = refusal(problem_, full, forced);
  EXPECT_NE(after.code, ErrorCode::invalid_spec) << after.message;
  EXPECT_NE(after.message.find("KOPT_PYTHON"), std::string::npos) << after.message;
}

TEST_F(TorchImportArguments, PrecisionAndFamilyAreCheckedAsTheImporterChecksThem) {
  TorchImportOptions options;
  options.precision = "fp16";
  EXPECT_EQ(refusal(problem_, scratch_.path() / "out", options).message,
            "--precision fp16: expected fp32 or bf16");
  options.precision = "bf16";
  options.family = "row softmax";
  EXPECT_EQ(refusal(problem_, scratch_.path() / "out", options).message,
            "--family 'row softmax': expected letters, digits, _ . - only");
  options.family = "row_softmax.v-1";
  EXPECT_NE(refusal(problem_, scratch_.path() / "out", options).code, ErrorCode::invalid_spec);
}

}  // namespace torch_import_test
}  // namespace kopt
