// The configuration files: where they are found, validation (errors name file, line, key and what was
// expected), precedence against the environment, and the export to environment variables.
#include "cli/config_files.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <map>

#include "support/temp_dir.hpp"

namespace kopt::cli {
namespace config_files_test {

namespace fs = std::filesystem;

void write(fs::path const& path, std::string const& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
  ::chmod(path.c_str(), 0600);
}

// A fake environment: only what a test sets exists.
struct FakeEnvironment {
  std::map<std::string, std::string, std::less<>> values;
  EnvironmentLookup lookup() const {
    return [this](std::string_view name) -> std::optional<std::string> {
      auto const it = values.find(name);
      if (it == values.end() || it->second.empty()) return std::nullopt;
      return it->second;
    };
  }
};

ResolvedSetting const& setting(Configuration const& configuration, std::string_view key) {
  for (auto const& resolved : configuration.settings) {
    if (resolved.setting->key == key) return resolved;
  }
  throw std::logic_error("no setting " + std::string(key));
}

// A project (with .git) and a user config home in a temp folder.
struct ConfigFilesTest : ::testing::Test {
  kopt::test::TempDir dir;
  fs::path project = dir.path() / "project";
  fs::path xdg = dir.path() / "xdg";
  FakeEnvironment env;
  void SetUp() override {
    fs::create_directories(project / ".git");
    env.values["XDG_CONFIG_HOME"] = xdg.string();
    env.values["HOME"] = (dir.path() / "home").string();
  }
  fs::path project_file() const { return project / "kopt.toml"; }
  fs::path user_file() const { return xdg / "kopt" / "config.toml"; }
  std::string error_of(std::string const& text) {
    write(project_file(), text);
    auto resolved = resolve_configuration(project, env.lookup());
    EXPECT_FALSE(resolved) << "accepted:\n" << text;
    if (resolved) return "";
    EXPECT_EQ(resolved.error().code, ErrorCode::invalid_argument);
    return resolved.error().message;
  }
};

TEST_F(ConfigFilesTest, ProjectFileIsFoundUpwardsToTheGitRootOnly) {
  fs::create_directories(project / "a" / "b");
  EXPECT_EQ(find_project_file(project / "a" / "b"), std::nullopt);
  write(dir.path() / "kopt.toml", "");  // above the git root: not this project's
  EXPECT_EQ(find_project_file(project / "a" / "b"), std::nullopt);
  write(project_file(), "");
  EXPECT_EQ(find_project_file(project / "a" / "b"), project_file());
  write(project / "a" / "kopt.toml", "");  // the nearest wins
  EXPECT_EQ(find_project_file(project / "a" / "b"), project / "a" / "kopt.toml");
  EXPECT_EQ(find_project_file(fs::path()), std::nullopt);
}

TEST_F(ConfigFilesTest, UserFileFollowsXdgThenHome) {
  EXPECT_EQ(user_file_path(env.lookup()), user_file());
  env.values.erase("XDG_CONFIG_HOME");
  EXPECT_EQ(user_file_path(env.lookup()), dir.path() / "home" / ".config" / "kopt" / "config.toml");
  env.values["XDG_CONFIG_HOME"] = "relative/not/allowed";  // the XDG spec ignores relative paths
  EXPECT_EQ(user_file_path(env.lookup()), dir.path() / "home" / ".config" / "kopt" / "config.toml");
  env.values.erase("HOME");
  env.values.erase("XDG_CONFIG_HOME");
  EXPECT_EQ(user_file_path(env.lookup()), std::nullopt);
}

TEST_F(ConfigFilesTest, PrecedenceIsEnvironmentThenProjectThenUserThenDefault) {
  write(user_file(), "[compile]\nnice = 5\n[llm]\nmodel = \"user-model\"\nbackend = \"replay\"\n");
  write(project_file(), "# the project's\n[compile]\nnice = 7\n[llm]\nmodel = \"project-model\"\n");
  env.values["KOPT_LLM_MODEL"] = "environment-model";
  auto resolved = resolve_configuration(project / "", env.lookup());
  ASSERT_TRUE(resolved) << resolved.error().message;
  EXPECT_EQ(resolved->project_file, project_file());
  EXPECT_TRUE(resolved->user_file_present);

  auto const& nice = setting(*resolved, "compile.nice");
  EXPECT_EQ(nice.value, "7");
  EXPECT_EQ(nice.origin, SettingOrigin::project_file);
  EXPECT_EQ(nice.file, project_file());
  EXPECT_EQ(nice.line, 3);
  auto const& model = setting(*resolved, "llm.model");
  EXPECT_EQ(model.value, "environment-model");
  EXPECT_EQ(model.origin, SettingOrigin::environment);
  auto const& backend = setting(*resolved, "llm.backend");
  EXPECT_EQ(backend.value, "replay");
  EXPECT_EQ(backend.origin, SettingOrigin::user_file);
  EXPECT_EQ(backend.line, 5);
  auto const& worker = setting(*resolved, "worker.path");
  EXPECT_EQ(worker.value, std::nullopt);
  EXPECT_EQ(worker.origin, SettingOrigin::default_value);
}

TEST_F(ConfigFilesTest, AnEmptyVariableCountsAsUnsetSoTheFileApplies) {
  write(project_file(), "[compile]\nnice = 3\n");
  env.values["KOPT_COMPILE_NICE"] = "";
  auto resolved = resolve_configuration(project, env.lookup());
  ASSERT_TRUE(resolved) << resolved.error().message;
  EXPECT_EQ(setting(*resolved, "compile.nice").origin, SettingOrigin::project_file);
}

TEST_F(ConfigFilesTest, ValuesBecomeTheVariablesText) {
  write(
      project_file(),
      "[worker]\npath = \"build/bin/kopt-worker\"\nkernel_activity = false\n"
      "[compile]\ncache_dir = \"~/cache\"\nno_cache = true\nserver = \"kopt-compile\"\nnvcc_timeout_s = 2.5\n"
      "[llm]\ncommand = [\"my-model\", \"--temperature\", \"0\"]\nconnect_timeout_s = 30\n"
      "prices = \"/etc/kopt/prices.toml\"\n[log]\ndebug = false\n");
  auto file = read_config_file(project_file(), env.lookup());
  ASSERT_TRUE(file) << file.error().message;
  std::map<std::string, std::string> values;
  for (auto const& value : file->values) values[std::string(value.setting->env)] = value.env_value;
  EXPECT_EQ(values["KOPT_WORKER"],
            (project / "build" / "bin" / "kopt-worker").string());  // the file's folder
  EXPECT_EQ(values["KOPT_WORKER_KERNEL_ACTIVITY"], "0");
  EXPECT_EQ(values["KOPT_CACHE_DIR"], (dir.path() / "home" / "cache").string());
  EXPECT_EQ(values["KOPT_NO_CACHE"], "1");
  EXPECT_EQ(values["KOPT_COMPILE_SERVER"], "kopt-compile");  // a bare name: looked up on PATH
  EXPECT_EQ(values["KOPT_NVCC_TIMEOUT_S"], "2.5");
  EXPECT_EQ(values["KOPT_LLM_COMMAND"], R"(["my-model","--temperature","0"])");
  EXPECT_EQ(values["KOPT_LLM_CONNECT_TIMEOUT_S"], "30");
  EXPECT_EQ(values["KOPT_LLM_PRICES"], "/etc/kopt/prices.toml");
  EXPECT_EQ(values["KOPT_DEBUG"], "");  // false leaves KOPT_DEBUG unset (any value turns it on)
  write(project_file(), "[compile]\nserver = false\n");
  EXPECT_EQ(read_config_file(project_file(), env.lookup())->values.at(0).env_value, "off");
}

TEST_F(ConfigFilesTest, ADottedKeyAtTheTopIsTheSameKey) {
  write(project_file(), "# dotted\ncompile.nice = 15\n");
  auto resolved = resolve_configuration(project, env.lookup());
  ASSERT_TRUE(resolved) << resolved.error().message;
  EXPECT_EQ(setting(*resolved, "compile.nice").value, "15");
  EXPECT_EQ(setting(*resolved, "compile.nice").line, 2);
}

TEST_F(ConfigFilesTest, UnknownKeyNamesFileLineAndTheNearKey) {
  std::string const message = error_of("[llm]\nmodel = \"m\"\nmodle = \"x\"\n");
  EXPECT_NE(message.find(project_file().string() + ":3: unknown key 'llm.modle'; did you mean 'llm.model'?"),
            std::string::npos)
      << message;
}

TEST_F(ConfigFilesTest, UnknownTableAndTopLevelKeysAreErrors) {
  EXPECT_NE(error_of("[complie]\nnice = 3\n").find(":1: unknown table [complie]; did you mean [compile]?"),
            std::string::npos);
  EXPECT_NE(error_of("model = \"x\"\n")
                .find("unknown key 'model' (settings live in tables such as "
                      "[compile]); did you mean 'llm.model'?"),
            std::string::npos);
  EXPECT_NE(error_of("KOPT_COMPILE_NICE = 3\n").find("did you mean 'compile.nice'?"), std::string::npos);
  std::string const far = error_of("[gpu]\nclock = 1\n");
  EXPECT_NE(far.find("unknown table [gpu]"), std::string::npos) << far;
  EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
}

TEST_F(ConfigFilesTest, WrongTypeSaysWhatWasExpected) {
  EXPECT_NE(error_of("[compile]\nnice = \"low\"\n")
                .find(":2: compile.nice: expected an integer from 0 to 19, got a string"),
            std::string::npos);
  EXPECT_NE(error_of("[compile]\nnice = 2.5\n").find("got a floating-point number"), std::string::npos);
  EXPECT_NE(error_of("[worker]\npath = 3\n").find("worker.path: expected a path (string), got an integer"),
            std::string::npos);
  EXPECT_NE(error_of("[compile]\nno_cache = \"yes\"\n").find("expected true or false, got a string"),
            std::string::npos);
  EXPECT_NE(error_of("[llm]\ncommand = [\"a\", 1]\n").find("got an array holding an integer"),
            std::string::npos);
  EXPECT_NE(error_of("[llm.extra]\nx = 1\n").find("unknown key 'llm.extra'"), std::string::npos);
}

TEST_F(ConfigFilesTest, OutOfRangeValuesAreErrors) {
  EXPECT_NE(error_of("[compile]\nnice = 25\n").find("compile.nice: expected an integer from 0 to 19, got 25"),
            std::string::npos);
  EXPECT_NE(error_of("[compile]\nnice = -1\n").find("got -1"), std::string::npos);
  EXPECT_NE(error_of("[llm]\nmax_attempts = 0\n").find("expected an integer from 1 to 100, got 0"),
            std::string::npos);
  EXPECT_NE(error_of("[llm]\ntimeout_s = 0\n")
                .find("llm.timeout_s: expected a number of seconds greater than 0 and at most 86400, got 0"),
            std::string::npos);
  EXPECT_NE(error_of("[llm]\nbackend = \"gpt\"\n")
                .find("llm.backend: expected one of openai, anthropic, command, replay, got 'gpt'"),
            std::string::npos);
  EXPECT_NE(error_of("[llm]\nbase_url = \"localhost:8000\"\n").find("got 'localhost:8000'"),
            std::string::npos);
  EXPECT_NE(error_of("[llm]\ncommand = []\n").find("got an empty array"), std::string::npos);
}

TEST_F(ConfigFilesTest, EveryProblemOfAFileIsReportedAtOnce) {
  std::string const message = error_of("[compile]\nnice = 99\nnicce = 1\n[llm]\nbackend = 3\n");
  EXPECT_NE(message.find("3 problems in the configuration file " + project_file().string()),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(":2: compile.nice"), std::string::npos) << message;
  EXPECT_NE(message.find(":3: unknown key 'compile.nicce'"), std::string::npos) << message;
  EXPECT_NE(message.find(":5: llm.backend"), std::string::npos) << message;
  // In the file's order, though toml++ keeps a table's keys sorted.
  std::string const ordered = error_of("[llm]\nmodle = \"x\"\nbackend = \"gpt\"\n");
  EXPECT_LT(ordered.find(":2: unknown key 'llm.modle'"), ordered.find(":3: llm.backend")) << ordered;
}

TEST_F(ConfigFilesTest, MalformedTomlNamesTheLine) {
  std::string const message = error_of("[compile]\nnice = = 3\n");
  EXPECT_NE(message.find(project_file().string() + ":2:"), std::string::npos) << message;
  EXPECT_NE(message.find("not valid TOML"), std::string::npos) << message;
}

TEST_F(ConfigFilesTest, AnUnreadableFileIsAnIoError) {
  auto file = read_config_file(project / "missing.toml", env.lookup());
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().code, ErrorCode::io_error);
  EXPECT_NE(file.error().message.find("missing.toml"), std::string::npos);
}

TEST_F(ConfigFilesTest, ABrokenUserFileIsReportedToo) {
  write(user_file(), "[llm]\nmax_attempts = 1000\n");
  auto resolved = resolve_configuration(project, env.lookup());
  ASSERT_FALSE(resolved);
  EXPECT_NE(resolved.error().message.find(user_file().string() + ":2: llm.max_attempts"), std::string::npos);
}

TEST_F(ConfigFilesTest, NoConfigReadsNoFile) {
  write(project_file(), "[compile]\nnice = 99\n");  // broken, and not read
  env.values["KOPT_NO_CONFIG"] = "1";
  auto resolved = resolve_configuration(project, env.lookup());
  ASSERT_TRUE(resolved) << resolved.error().message;
  EXPECT_TRUE(resolved->files_disabled);
  EXPECT_EQ(resolved->project_file, std::nullopt);
  EXPECT_EQ(setting(*resolved, "compile.nice").origin, SettingOrigin::default_value);
  env.values["KOPT_NO_CONFIG"] = "0";  // 0 means "no, do read them"
  EXPECT_FALSE(resolve_configuration(project, env.lookup()));
}

TEST_F(ConfigFilesTest, ASecretInAFileOthersCanReadIsWarnedAbout) {
  write(user_file(), "[llm]\napi_key = \"sk-test\"\n");
  auto private_file = resolve_configuration(project, env.lookup());
  ASSERT_TRUE(private_file) << private_file.error().message;
  EXPECT_TRUE(private_file->warnings.empty());
  ::chmod(user_file().c_str(), 0644);
  auto readable = resolve_configuration(project, env.lookup());
  ASSERT_TRUE(readable);
  ASSERT_EQ(readable->warnings.size(), 1u);
  EXPECT_NE(readable->warnings[0].find(user_file().string() + " holds llm.api_key"), std::string::npos);
  EXPECT_NE(readable->warnings[0].find("chmod 600"), std::string::npos);
  EXPECT_EQ(readable->warnings[0].find("sk-test"), std::string::npos);
}

TEST(ConfigExport, FileValuesBecomeVariablesWithoutReplacingSetOnes) {
  Setting const* nice = find_setting_by_key("compile.nice");
  Setting const* model = find_setting_by_key("llm.model");
  ASSERT_NE(nice, nullptr);
  ASSERT_NE(model, nullptr);
  std::string const saved_nice = std::getenv("KOPT_COMPILE_NICE") ? std::getenv("KOPT_COMPILE_NICE") : "";
  std::string const saved_model = std::getenv("KOPT_LLM_MODEL") ? std::getenv("KOPT_LLM_MODEL") : "";
  ::setenv("KOPT_COMPILE_NICE", "", 1);         // empty: counts as unset
  ::setenv("KOPT_LLM_MODEL", "from-shell", 1);  // set after resolving: it wins
  Configuration configuration;
  configuration.settings.push_back({nice, "4", SettingOrigin::project_file, "/p/kopt.toml", 2});
  configuration.settings.push_back({model, "from-file", SettingOrigin::user_file, "/u/config.toml", 3});
  export_to_environment(configuration);
  EXPECT_STREQ(std::getenv("KOPT_COMPILE_NICE"), "4");
  EXPECT_STREQ(std::getenv("KOPT_LLM_MODEL"), "from-shell");
  auto restore = [](char const* name, std::string const& value) {
    if (value.empty()) {
      ::unsetenv(name);
    } else {
      ::setenv(name, value.c_str(), 1);
    }
  };
  restore("KOPT_COMPILE_NICE", saved_nice);
  restore("KOPT_LLM_MODEL", saved_model);
}

}  // namespace config_files_test
}  // namespace kopt::cli
