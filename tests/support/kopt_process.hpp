// Runs the built kopt executable from the source folder, the way a user would, with the KOPT_LLM_* variables
// cleared, no configuration file read (KOPT_NO_CONFIG=1), then `environment` set; its exit code,
// stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/temp_dir.hpp"

namespace kopt::test {

struct KoptOutcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `work` holds the captured output files.
inline KoptOutcome run_kopt(std::filesystem::path const& kopt, std::filesystem::path const& work,
                            std::string const& environment, std::string const& arguments) {
  auto const out = work / "stdout";
  auto const err = work / "stderr";
  std::string const command =
      "cd " + std::string(KOPT_SOURCE_DIR) +
      " && env -u KOPT_LLM_BACKEND -u KOPT_LLM_BASE_URL -u KOPT_LLM_MODEL -u KOPT_LLM_API_KEY "
      "-u KOPT_LLM_REPLAY_FILE -u KOPT_LLM_CACHE_DIR KOPT_NO_CONFIG=1 " +
      environment + " " + kopt.string() + " " + arguments + " >" + out.string() + " 2>" + err.string();
  int const status = std::system(command.c_str());
  auto slurp = [](std::filesystem::path const& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  return KoptOutcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

// A test of the built kopt executable (skipped until it is built); run() captures into a fresh folder.
struct KoptProcessTest : ::testing::Test {
  void SetUp() override {
    kopt = std::filesystem::path(KOPT_BINARY_DIR) / "bin" / "kopt";
    if (!std::filesystem::exists(kopt)) GTEST_SKIP() << "build the kopt executable first (" << kopt << ")";
  }
  // Runs kopt with the KOPT_LLM_* variables cleared, then `environment` set.
  KoptOutcome run(std::string const& environment, std::string const& arguments) {
    return run_kopt(kopt, dir.path(), environment, arguments);
  }
  TempDir dir;
  std::filesystem::path kopt;
};

}  // namespace kopt::test
