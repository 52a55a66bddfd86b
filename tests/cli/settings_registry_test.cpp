// The registry (src/cli/settings.cpp) against the sources and the docs: every KOPT_ variable the code
// reads is registered, every registered one is read somewhere, and docs/configuration.md has each row.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "cli/settings.hpp"

namespace kopt::cli {
namespace settings_registry_test {

namespace fs = std::filesystem;

std::string slurp(fs::path const& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Names that look like variables and are not: compile definitions, macros kopt writes into generated
// sources, a Python constant, and the invented variable of the worker-environment test.
std::set<std::string> const kNotSettings{
    "KOPT_SOURCE_DIR",                  // compile definition of the tests (CMake)
    "KOPT_BINARY_DIR",                  // compile definition of the tests (CMake)
    "KOPT_VERSION",                     // compile definition of kopt_cli (CMake)
    "KOPT_HAVE_SECCOMP",                // compile definition of kopt_worker_confine (CMake: libseccomp found)
    "KOPT_SANITIZE",                    // CMake option: the ASan+UBSan build (docs/fuzzing.md)
    "KOPT_FUZZ",                        // CMake option: the libFuzzer harnesses (docs/fuzzing.md)
    "KOPT_RESTRICT",                    // macro of the generic tuning space's kernels (src/propose)
    "KOPT_BENCH_VARIANT",               // macro that makes bench/eval_throughput's sources distinct
    "KOPT_SCALING_VARIANT",             // macro that makes bench/compile_scaling's sources distinct
    "KOPT_VALID_COUNT",                 // constant of bench/kernel_tuner/compare.py
    "KOPT_WORKER_PROBE",                // invented by tests/worker to check the KOPT_WORKER_ pass-through
    "KOPT_RUN_PROCESS_TEST_INHERITED",  // invented by tests/toolchain: a child inherits the environment
    "KOPT_RUN_PROCESS_TEST_ADDED",      // invented by tests/toolchain: a child gets its overrides
    "KOPT_EXAMPLES_DIR",                // compile definition of tests/install's consumer (CMake)
    "KOPT_STRATEGIES_DIR",              // compile definition of tests/install's consumer (CMake)
    "KOPT_UNITY_BUILD",                 // CMake option (scripts/lint.sh configures with it off)
    "KOPT_USE_CCACHE",                  // CMake option
    "KOPT_WARNINGS_AS_ERRORS",          // CMake option (CI turns it on; scripts/lint.sh names it)
    "KOPT_HOST_DEVICE",  // macro of src/worker/gpu/masked_results.hpp (__host__ __device__ under nvcc)
};

// Every KOPT_ name in the source, script and test files, with the first file that holds it.
std::map<std::string, std::string> kopt_names_in_sources(bool skip_registry) {
  static std::set<std::string> const kExtensions{".cpp", ".hpp", ".h", ".cu", ".cuh", ".sh", ".py"};
  static RE2 const name("(KOPT_[A-Z0-9_]*)", RE2::Latin1);
  std::map<std::string, std::string> found;
  fs::path const root(KOPT_SOURCE_DIR);
  for (char const* folder : {"src", "include", "scripts", "bench", "tests"}) {
    for (auto const& entry : fs::recursive_directory_iterator(root / folder)) {
      if (!entry.is_regular_file() || kExtensions.count(entry.path().extension().string()) == 0) continue;
      fs::path const relative = fs::relative(entry.path(), root);
      // The registry and these tests name every variable; they prove nothing about use.
      if (skip_registry &&
          (relative == fs::path("src/cli/settings.cpp") || relative.parent_path() == fs::path("tests/cli"))) {
        continue;
      }
      std::string const text = slurp(entry.path());
      re2::StringPiece rest(text);
      for (std::string word; RE2::FindAndConsume(&rest, name, &word);) found.emplace(word, relative.string());
    }
  }
  return found;
}

TEST(SettingsRegistry, EveryKoptVariableInTheSourcesIsRegistered) {
  auto const names = kopt_names_in_sources(false);
  ASSERT_GT(names.size(), 20u) << "the scan found almost nothing: is KOPT_SOURCE_DIR right?";
  for (auto const& [variable, file] : names) {
    if (kNotSettings.count(variable) != 0) continue;
    if (variable.back() == '_') {            // a prefix built at run time ("KOPT_WORKER_" + name) or in prose
      std::string const& prefix = variable;  // a lambda may not capture a structured binding (clang 14)
      bool const covers_one =
          std::any_of(all_settings().begin(), all_settings().end(),
                      [&](Setting const& s) { return s.env.substr(0, prefix.size()) == prefix; });
      EXPECT_TRUE(covers_one) << variable << " (in " << file << ") is the prefix of no registered variable";
      continue;
    }
    EXPECT_NE(find_setting_by_env(variable), nullptr)
        << variable << " is read in " << file
        << " but has no entry in src/cli/settings.cpp: add it there and to docs/configuration.md, or, when it"
        << " is no environment variable (a macro, a compile definition), to kNotSettings in this test";
  }
}

TEST(SettingsRegistry, EveryRegisteredVariableIsUsedSomewhere) {
  auto const names = kopt_names_in_sources(/*skip_registry=*/true);
  for (Setting const& s : all_settings()) {
    EXPECT_EQ(names.count(std::string(s.env)), 1u)
        << s.env << " is registered but nothing under src, include, scripts, bench or tests (outside the "
        << "registry and tests/cli) names it";
  }
}

TEST(SettingsRegistry, DocsListEverySettingAsTheRegistryDescribesIt) {
  std::string const doc = slurp(fs::path(KOPT_SOURCE_DIR) / "docs" / "configuration.md");
  ASSERT_FALSE(doc.empty()) << "docs/configuration.md is missing";
  for (Setting const& s : all_settings()) {
    std::string const row = settings_table_row(s);
    EXPECT_NE(doc.find(row + "\n"), std::string::npos)
        << s.env << ": docs/configuration.md lacks this row (or it differs):\n"
        << row;
  }
}

TEST(SettingsRegistry, KeysAndVariablesAreUniqueAndWellFormed) {
  std::set<std::string_view> keys;
  std::set<std::string_view> variables;
  for (Setting const& s : all_settings()) {
    EXPECT_TRUE(variables.insert(s.env).second) << "variable twice: " << s.env;
    EXPECT_EQ(s.env.substr(0, 5), "KOPT_") << s.env;
    EXPECT_FALSE(s.meaning.empty()) << s.env;
    EXPECT_FALSE(s.default_text.empty()) << s.env;
    EXPECT_EQ(s.doc.substr(0, 5), "docs/") << s.env;
    EXPECT_TRUE(fs::exists(fs::path(KOPT_SOURCE_DIR) / s.doc)) << s.env << ": " << s.doc;
    if (s.key.empty()) continue;
    EXPECT_EQ(s.scope, SettingScope::user) << s.env << ": only user settings have a file key";
    EXPECT_TRUE(keys.insert(s.key).second) << "key twice: " << s.key;
    EXPECT_FALSE(key_table(s.key).empty()) << s.key << ": a key lives in a table (table.name)";
    if (s.type == SettingType::integer || s.type == SettingType::seconds) {
      EXPECT_LT(s.low, s.high) << s.key;
    }
  }
}

TEST(SettingsRegistry, LookupAndSuggestions) {
  ASSERT_NE(find_setting_by_key("compile.nice"), nullptr);
  EXPECT_EQ(find_setting_by_key("compile.nice")->env, "KOPT_COMPILE_NICE");
  EXPECT_EQ(find_setting_by_env("KOPT_WORKER")->key, "worker.path");
  EXPECT_EQ(find_setting_by_key("nice"), nullptr);
  EXPECT_EQ(nearest_setting_key("llm.modle"), "llm.model");
  EXPECT_EQ(nearest_setting_key("model"), "llm.model");
  EXPECT_EQ(nearest_setting_key("KOPT_LLM_MODEL"), "llm.model");
  EXPECT_EQ(nearest_setting_key("complie.nice"), "compile.nice");
  EXPECT_EQ(nearest_setting_key("entirely.different"), std::nullopt);
  EXPECT_EQ(nearest_setting_table("complie"), "compile");
  EXPECT_EQ(nearest_setting_table("gpu"), std::nullopt);
  EXPECT_EQ(expected_text(*find_setting_by_key("compile.nice")), "an integer from 0 to 19");
  EXPECT_EQ(expected_text(*find_setting_by_key("llm.backend")), "one of openai, anthropic, command, replay");
}

}  // namespace settings_registry_test
}  // namespace kopt::cli
