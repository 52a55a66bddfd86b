// The LLM backend registry: every kind listed once, and each capability field matching what the backend
// actually refuses or reads.
#include <gtest/gtest.h>

#include <set>

#include "kopt/llm.hpp"
#include "llm/llm_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace backend_registry_test {

constexpr LlmKind kEveryKind[] = {LlmKind::openai, LlmKind::anthropic, LlmKind::command, LlmKind::replay};

// A config that every backend accepts: each field set, a recorded session to replay.
LlmConfig complete_config(LlmBackendInfo const& backend, std::filesystem::path const& replay_file) {
  LlmConfig config;
  config.kind = backend.kind;
  config.base_url = "http://localhost:9/v1";
  config.model = "some-model";
  config.api_key = "sk-test";
  config.command = {"/bin/sh"};
  config.replay_file = replay_file;
  return config;
}

LlmHooks no_environment() {
  LlmHooks hooks;
  hooks.getenv = [](std::string const&) -> std::optional<std::string> { return std::nullopt; };
  return hooks;
}

class BackendRegistry : public ::testing::Test {
 protected:
  void SetUp() override {
    auto recorder = with_recording(std::make_unique<test::FakeBackend>(), replay_file_);
    ASSERT_TRUE(recorder->complete(test::simple_request("one")));
  }
  test::TempDir dir_;
  std::filesystem::path replay_file_ = dir_.path() / "session.jsonl";
};

TEST_F(BackendRegistry, EveryKindIsListedOnceUnderAUniqueName) {
  std::set<std::string_view> names;
  std::set<LlmKind> kinds;
  for (LlmBackendInfo const& backend : llm_backends()) {
    EXPECT_TRUE(names.insert(backend.name).second) << backend.name;
    EXPECT_TRUE(kinds.insert(backend.kind).second) << backend.name;
    EXPECT_FALSE(backend.description.empty()) << backend.name;
    EXPECT_NE(backend.make, nullptr) << backend.name;
    EXPECT_EQ(find_llm_backend(backend.name), &backend);
  }
  for (LlmKind kind : kEveryKind) {
    EXPECT_EQ(kinds.count(kind), 1U) << to_string(kind);
    EXPECT_EQ(llm_backend_info(kind).kind, kind);
    EXPECT_EQ(llm_kind_from_string(to_string(kind)), kind);
  }
  EXPECT_EQ(find_llm_backend("gpt"), nullptr);
  EXPECT_EQ(llm_backend_names(", "), "openai, anthropic, command, replay");
}

TEST_F(BackendRegistry, EachBackendIsBuiltFromACompleteConfig) {
  for (LlmBackendInfo const& backend : llm_backends()) {
    auto built = make_llm_backend(complete_config(backend, replay_file_), no_environment());
    EXPECT_TRUE(built) << backend.name << ": " << built.error().message;
  }
}

TEST_F(BackendRegistry, NeedsModelIsWhatRefusesAConfigWithoutOne) {
  for (LlmBackendInfo const& backend : llm_backends()) {
    LlmConfig config = complete_config(backend, replay_file_);
    config.model.clear();
    auto built = make_llm_backend(config, no_environment());
    EXPECT_EQ(!built, backend.needs_model) << backend.name;
    if (!built) {
      EXPECT_NE(built.error().message.find("KOPT_LLM_MODEL"), std::string::npos);
    }
  }
}

TEST_F(BackendRegistry, NeedsApiKeyIsWhatRefusesAConfigWithoutOne) {
  for (LlmBackendInfo const& backend : llm_backends()) {
    LlmConfig config = complete_config(backend, replay_file_);
    config.api_key.clear();
    auto built = make_llm_backend(config, no_environment());
    EXPECT_EQ(!built, backend.needs_api_key) << backend.name;
  }
}

TEST_F(BackendRegistry, NeedsNetworkIsWhatReadsTheBaseUrl) {
  for (LlmBackendInfo const& backend : llm_backends()) {
    LlmConfig config = complete_config(backend, replay_file_);
    config.base_url = "ftp://example.com";
    auto built = make_llm_backend(config, no_environment());
    EXPECT_EQ(!built, backend.needs_network) << backend.name;
    // Without a base URL only a backend with a default one starts.
    config.base_url.clear();
    built = make_llm_backend(config, no_environment());
    EXPECT_EQ(!built, backend.needs_network && backend.default_base_url.empty()) << backend.name;
  }
}

TEST_F(BackendRegistry, TheEnvironmentReadsTheKeyWhereTheBackendSays) {
  for (LlmBackendInfo const& backend : llm_backends()) {
    LlmHooks hooks;
    hooks.getenv = [&](std::string const& name) -> std::optional<std::string> {
      if (name == "KOPT_LLM_BACKEND") return std::string(backend.name);
      return std::nullopt;
    };
    auto config = llm_config_from_env(hooks);
    ASSERT_TRUE(config) << config.error().message;
    EXPECT_EQ(config->kind, backend.kind);
    EXPECT_EQ(config->api_key_env, backend.api_key_env.empty() ? "KOPT_LLM_API_KEY" : backend.api_key_env);
  }
}

TEST(BackendRegistryErrors, AnUnknownBackendNamesTheChoicesFromTheRegistry) {
  LlmHooks hooks;
  hooks.getenv = [](std::string const& name) -> std::optional<std::string> {
    if (name == "KOPT_LLM_BACKEND") return std::string("gpt");
    return std::nullopt;
  };
  auto config = llm_config_from_env(hooks);
  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().message,
            "KOPT_LLM_BACKEND: expected one of openai, anthropic, command, replay, got 'gpt'");
}

}  // namespace backend_registry_test
}  // namespace kopt
