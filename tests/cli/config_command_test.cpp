// `kopt config`: its command line, what it prints, and the built kopt reading a kopt.toml end to end.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/config_report.hpp"
#include "parse_support.hpp"
#include "support/temp_dir.hpp"

namespace kopt::cli {
namespace config_command_test {

namespace fs = std::filesystem;

Configuration sample_configuration() {
  Configuration configuration;
  configuration.project_file = "/work/proj/kopt.toml";
  configuration.user_file = "/home/u/.config/kopt/config.toml";
  for (Setting const& s : all_settings()) {
    if (s.scope != SettingScope::user) continue;
    ResolvedSetting resolved{&s, std::nullopt, SettingOrigin::default_value, {}, 0};
    if (s.key == "compile.nice") resolved = {&s, "3", SettingOrigin::project_file, "/work/proj/kopt.toml", 2};
    if (s.key == "llm.api_key") resolved = {&s, "sk-secret", SettingOrigin::user_file, "/home/u/c.toml", 4};
    if (s.key == "llm.model") resolved = {&s, "m", SettingOrigin::environment, {}, 0};
    configuration.settings.push_back(resolved);
  }
  return configuration;
}

TEST(ConfigCommand, ParsesWithAndWithoutJson) {
  auto plain = test::parse({"config"});
  ASSERT_TRUE(plain.parsed.arguments);
  EXPECT_EQ(plain.parsed.arguments->command, "config");
  EXPECT_FALSE(plain.parsed.arguments->config.json);
  auto json = test::parse({"config", "--json"});
  ASSERT_TRUE(json.parsed.arguments);
  EXPECT_TRUE(json.parsed.arguments->config.json);
}

TEST(ConfigCommand, MainHelpPointsToConfigAndTheDocs) {
  auto help = test::parse({"--help"});
  EXPECT_NE(help.out.find("kopt config"), std::string::npos);
  EXPECT_NE(help.out.find("docs/configuration.md"), std::string::npos);
  EXPECT_NE(help.out.find("kopt.toml"), std::string::npos);
}

TEST(ConfigCommand, JsonGivesValueOriginAndPlaceButNeverASecret) {
  auto const doc = configuration_to_json(sample_configuration());
  EXPECT_EQ(doc["schema"], "kopt.config/1");
  EXPECT_EQ(doc["files"]["project"], "/work/proj/kopt.toml");
  EXPECT_EQ(doc.dump().find("sk-secret"), std::string::npos);
  bool saw_nice = false;
  for (auto const& entry : doc["settings"]) {
    if (entry["key"] == "compile.nice") {
      saw_nice = true;
      EXPECT_EQ(entry["value"], "3");
      EXPECT_EQ(entry["origin"], "project file");
      EXPECT_EQ(entry["file"], "/work/proj/kopt.toml");
      EXPECT_EQ(entry["line"], 2);
      EXPECT_EQ(entry["variable"], "KOPT_COMPILE_NICE");
    } else if (entry["key"] == "llm.api_key") {
      EXPECT_TRUE(entry["value"].is_null());
      EXPECT_EQ(entry["hidden"], true);
    } else if (entry["key"] == "worker.path") {
      EXPECT_TRUE(entry["value"].is_null());
      EXPECT_EQ(entry["origin"], "default");
      EXPECT_EQ(entry["default"], "kopt-worker next to kopt");
    }
  }
  EXPECT_TRUE(saw_nice);
}

TEST(ConfigCommand, TableShowsEverySettingAndHidesSecrets) {
  std::string const text = render_configuration(sample_configuration());
  EXPECT_NE(text.find("project: /work/proj/kopt.toml"), std::string::npos) << text;
  EXPECT_NE(text.find("project file /work/proj/kopt.toml:2"), std::string::npos) << text;
  EXPECT_NE(text.find("(set, hidden)"), std::string::npos) << text;
  EXPECT_EQ(text.find("sk-secret"), std::string::npos) << text;
  EXPECT_NE(text.find("(kopt-worker next to kopt)"), std::string::npos) << text;
  for (auto const& resolved : sample_configuration().settings) {
    EXPECT_NE(text.find(std::string(resolved.setting->env)), std::string::npos) << resolved.setting->env;
  }
}

// The built kopt, run in `cwd` with only `environment` (plus PATH) in its environment.
struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(fs::path const& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct BuiltKoptTest : ::testing::Test {
  void SetUp() override {
    kopt = fs::path(KOPT_BINARY_DIR) / "bin" / "kopt";
    if (!fs::exists(kopt)) GTEST_SKIP() << "build the kopt executable first (" << kopt << ")";
    fs::create_directories(project / ".git");
    fs::create_directories(project / "sub");
  }
  Outcome run(fs::path const& cwd, std::string const& environment, std::string const& arguments) {
    std::string const command = "cd " + cwd.string() +
                                " && env -i PATH=\"$PATH\" HOME=" + (dir.path() / "home").string() + " " +
                                environment + " " + kopt.string() + " " + arguments + " >" +
                                (dir.path() / "out").string() + " 2>" + (dir.path() / "err").string();
    int const status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir.path() / "out"),
            slurp(dir.path() / "err")};
  }
  kopt::test::TempDir dir;
  fs::path project = dir.path() / "project";
  fs::path kopt;
};

nlohmann::json entry(nlohmann::json const& doc, std::string const& key) {
  for (auto const& e : doc["settings"]) {
    if (e["key"] == key) return e;
  }
  return {};
}

TEST_F(BuiltKoptTest, ConfigShowsFileValuesAndTheirOrigins) {
  std::ofstream(project / "kopt.toml") << "[compile]\nnice = 3\n[worker]\npath = \"bin/kopt-worker\"\n";
  fs::create_directories(dir.path() / "xdg" / "kopt");
  std::ofstream(dir.path() / "xdg" / "kopt" / "config.toml")
      << "[llm]\nmodel = \"user-model\"\nbackend = \"replay\"\n";
  std::string const xdg = "XDG_CONFIG_HOME=" + (dir.path() / "xdg").string();
  auto const result = run(project / "sub", xdg + " KOPT_LLM_BACKEND=openai", "config --json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto const doc = nlohmann::json::parse(result.out);
  EXPECT_EQ(doc["files"]["project"], (project / "kopt.toml").string());
  EXPECT_EQ(entry(doc, "compile.nice")["value"], "3");
  EXPECT_EQ(entry(doc, "compile.nice")["origin"], "project file");
  EXPECT_EQ(entry(doc, "compile.nice")["line"], 2);
  EXPECT_EQ(entry(doc, "worker.path")["value"], (project / "bin" / "kopt-worker").string());
  EXPECT_EQ(entry(doc, "llm.model")["value"], "user-model");
  EXPECT_EQ(entry(doc, "llm.model")["origin"], "user file");
  EXPECT_EQ(entry(doc, "llm.backend")["value"], "openai");
  EXPECT_EQ(entry(doc, "llm.backend")["origin"], "environment");
  EXPECT_EQ(entry(doc, "compile.cache_dir")["origin"], "default");
}

TEST_F(BuiltKoptTest, ModulesSeeTheFileValues) {
  // The strategy library's lookup reads KOPT_STRATEGIES: a value from kopt.toml reaches it unchanged.
  std::ofstream(project / "kopt.toml") << "[data]\nstrategies = \"no-such-library\"\n";
  auto const result = run(project, "", "strategies");
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  EXPECT_NE(result.err.find("KOPT_STRATEGIES=" + (project / "no-such-library").string()), std::string::npos)
      << result.err;
}

TEST_F(BuiltKoptTest, ABadFileStopsEveryCommandWithExitCodeTwoButNotHelp) {
  std::ofstream(project / "kopt.toml") << "[compile]\nnice = 42\n";
  auto const config = run(project, "", "config");
  EXPECT_EQ(config.exit_code, 2);
  EXPECT_NE(config.err.find("kopt: error: " + (project / "kopt.toml").string() +
                            ":2: compile.nice: expected an integer from 0 to 19, got 42"),
            std::string::npos)
      << config.err;
  auto const json = run(project, "", "config --json");
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_EQ(nlohmann::json::parse(json.out)["error"]["exit_code"], 2);
  EXPECT_EQ(run(project, "", "--help").exit_code, 0);
  EXPECT_EQ(run(project, "KOPT_NO_CONFIG=1", "config").exit_code, 0);
}

}  // namespace config_command_test
}  // namespace kopt::cli
