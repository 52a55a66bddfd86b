// LlmConfig from the environment, the factory's checks, the price table and redaction.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "kopt/llm.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace config_test {

LlmHooks environment(std::map<std::string, std::string> values) {
  LlmHooks hooks;
  hooks.getenv = [values = std::move(values)](std::string const& name) -> std::optional<std::string> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
  return hooks;
}

TEST(LlmConfigFromEnv, ReadsEverySetting) {
  test::TempDir dir;
  auto prices = dir.path() / "prices.toml";
  std::ofstream(prices) << "[models.\"qwen\"]\ninput = 0.5\noutput = 2\n";
  auto config = llm_config_from_env(environment({{"KOPT_LLM_BACKEND", "openai"},
                                                 {"KOPT_LLM_BASE_URL", "http://localhost:8000/v1"},
                                                 {"KOPT_LLM_MODEL", "qwen"},
                                                 {"KOPT_LLM_CONNECT_TIMEOUT_S", "2.5"},
                                                 {"KOPT_LLM_IDLE_TIMEOUT_S", "30"},
                                                 {"KOPT_LLM_TIMEOUT_S", "300"},
                                                 {"KOPT_LLM_MAX_ATTEMPTS", "5"},
                                                 {"KOPT_LLM_PRICES", prices.string()},
                                                 {"KOPT_LLM_CACHE_DIR", "/tmp/llm-cache"}}));
  ASSERT_TRUE(config) << config.error().message;
  EXPECT_EQ(config->kind, LlmKind::openai);
  EXPECT_EQ(config->base_url, "http://localhost:8000/v1");
  EXPECT_EQ(config->model, "qwen");
  EXPECT_EQ(config->api_key_env, "KOPT_LLM_API_KEY");
  EXPECT_EQ(config->timeouts.connect, std::chrono::milliseconds(2500));
  EXPECT_EQ(config->timeouts.idle, std::chrono::seconds(30));
  EXPECT_EQ(config->timeouts.overall, std::chrono::seconds(300));
  EXPECT_EQ(config->retries.max_attempts, 5);
  ASSERT_EQ(config->prices.models.count("qwen"), 1U);
  EXPECT_DOUBLE_EQ(config->prices.models.at("qwen").cached_input, 0.5);  // defaults to input
  EXPECT_EQ(config->cache_dir, "/tmp/llm-cache");
}

TEST(LlmConfigFromEnv, AnthropicKeyAndCommandForms) {
  auto anthropic = llm_config_from_env(environment({{"KOPT_LLM_BACKEND", "anthropic"}}));
  ASSERT_TRUE(anthropic);
  EXPECT_EQ(anthropic->api_key_env, "ANTHROPIC_API_KEY");
  auto preferred =
      llm_config_from_env(environment({{"KOPT_LLM_BACKEND", "anthropic"}, {"KOPT_LLM_API_KEY", "k"}}));
  ASSERT_TRUE(preferred);
  EXPECT_EQ(preferred->api_key_env, "KOPT_LLM_API_KEY");

  auto words =
      llm_config_from_env(environment({{"KOPT_LLM_BACKEND", "command"}, {"KOPT_LLM_COMMAND", "llm -m  x"}}));
  ASSERT_TRUE(words);
  EXPECT_EQ(words->command, (std::vector<std::string>{"llm", "-m", "x"}));
  auto json = llm_config_from_env(
      environment({{"KOPT_LLM_COMMAND", R"(["my model", "--flag"])"}, {"KOPT_LLM_COMMAND_INPUT", "text"}}));
  ASSERT_TRUE(json);
  EXPECT_EQ(json->command, (std::vector<std::string>{"my model", "--flag"}));
  EXPECT_EQ(json->command_input, CommandInput::text);
}

TEST(LlmConfigFromEnv, BadValuesNameTheVariableAndWhatWasExpected) {
  struct Case {
    std::string name, value, words;
  };
  std::vector<Case> const cases = {
      {"KOPT_LLM_BACKEND", "gpt",
       "KOPT_LLM_BACKEND: expected one of openai, anthropic, command, replay, got 'gpt'"},
      {"KOPT_LLM_TIMEOUT_S", "soon", "KOPT_LLM_TIMEOUT_S: expected a positive number of seconds"},
      {"KOPT_LLM_IDLE_TIMEOUT_S", "-1", "KOPT_LLM_IDLE_TIMEOUT_S: expected a positive number"},
      {"KOPT_LLM_MAX_ATTEMPTS", "0", "KOPT_LLM_MAX_ATTEMPTS: expected an integer from 1 to 100"},
      {"KOPT_LLM_COMMAND_INPUT", "xml", "KOPT_LLM_COMMAND_INPUT: expected json or text"},
      {"KOPT_LLM_COMMAND", "[1, 2]", "KOPT_LLM_COMMAND: expected a JSON array of strings"},
      {"KOPT_LLM_PRICES", "/nonexistent/prices.toml", "KOPT_LLM_PRICES: cannot read the price table"},
  };
  for (auto const& c : cases) {
    auto config = llm_config_from_env(environment({{c.name, c.value}}));
    ASSERT_FALSE(config) << c.name;
    EXPECT_NE(config.error().message.find(c.words), std::string::npos) << config.error().message;
  }
}

TEST(MakeLlmBackend, ChecksTheConfigNamingTheSetting) {
  LlmConfig config;
  auto no_url = make_llm_backend(config);
  ASSERT_FALSE(no_url);
  EXPECT_EQ(no_url.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(no_url.error().message.find("base_url (KOPT_LLM_BASE_URL): not set"), std::string::npos);

  config.base_url = "localhost:8000/v1";
  auto bad_url = make_llm_backend(config);
  ASSERT_FALSE(bad_url);
  EXPECT_NE(bad_url.error().message.find(
                "expected a URL starting with http:// or https://, got 'localhost:8000/v1'"),
            std::string::npos);

  config.base_url = "http://localhost:8000/v1/";
  auto no_model = make_llm_backend(config);
  ASSERT_FALSE(no_model);
  EXPECT_NE(no_model.error().message.find("model (KOPT_LLM_MODEL): not set"), std::string::npos);

  config.model = "m";
  config.retries.max_attempts = 0;
  auto no_attempts = make_llm_backend(config);
  ASSERT_FALSE(no_attempts);
  EXPECT_NE(no_attempts.error().message.find("KOPT_LLM_MAX_ATTEMPTS"), std::string::npos);

  config.retries.max_attempts = 2;
  auto fine = make_llm_backend(config, environment({}));
  ASSERT_TRUE(fine) << fine.error().message;
  EXPECT_EQ((*fine)->identity(), "openai http://localhost:8000/v1 m");  // trailing slash gone

  LlmConfig anthropic;
  anthropic.kind = LlmKind::anthropic;
  anthropic.model = "claude";
  anthropic.api_key_env = "ANTHROPIC_API_KEY";
  auto no_key = make_llm_backend(anthropic, environment({}));
  ASSERT_FALSE(no_key);
  EXPECT_NE(no_key.error().message.find("api key (ANTHROPIC_API_KEY): not set"), std::string::npos)
      << no_key.error().message;
  auto keyed = make_llm_backend(anthropic, environment({{"ANTHROPIC_API_KEY", "sk-ant-abcdef"}}));
  ASSERT_TRUE(keyed) << keyed.error().message;
  EXPECT_EQ((*keyed)->identity(), "anthropic https://api.anthropic.com claude");
  EXPECT_EQ((*keyed)->identity().find("sk-ant"), std::string::npos);
}

TEST(PriceTable, ParsesAndPricesCalls) {
  auto table = parse_price_table(
      "[models.\"gpt-4o-mini\"]\ninput = 0.15\ncached_input = 0.075\noutput = 0.6\n"
      "[models.local]\ninput = 0\noutput = 0\n",
      "prices.toml");
  ASSERT_TRUE(table) << table.error().message;
  LlmUsage usage;
  usage.input_tokens = 2'000'000;
  usage.cached_input_tokens = 1'000'000;
  usage.output_tokens = 1'000'000;
  EXPECT_NEAR(table->cost("gpt-4o-mini", usage).value_or(-1), 0.15 + 0.075 + 0.6, 1e-12);
  EXPECT_EQ(table->cost("local", usage), 0.0);
  EXPECT_FALSE(table->cost("unknown", usage));  // unknown, not zero
  usage.output_tokens.reset();
  EXPECT_FALSE(table->cost("gpt-4o-mini", usage));
}

TEST(PriceTable, ErrorsNameTheModelAndField) {
  auto missing = parse_price_table("[models.m]\ninput = 1\n", "p.toml");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("p.toml: models.\"m\": expected both input and output"),
            std::string::npos);
  auto negative = parse_price_table("[models.m]\ninput = -1\noutput = 1\n", "p.toml");
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error().message.find("models.\"m\".input: expected a non-negative number"),
            std::string::npos);
  auto typo = parse_price_table("[models.m]\ninput = 1\nouptut = 1\n", "p.toml");
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.error().message.find("unknown field 'ouptut'"), std::string::npos);
  auto syntax = parse_price_table("[models.m\n", "p.toml");
  ASSERT_FALSE(syntax);
  EXPECT_NE(syntax.error().message.find("p.toml:1"), std::string::npos) << syntax.error().message;
  EXPECT_FALSE(parse_price_table("x = 1\n", "p.toml"));
}

TEST(RedactSecret, ReplacesEveryOccurrence) {
  EXPECT_EQ(redact_secret("key sk-123456 and sk-123456.", "sk-123456"), "key [redacted] and [redacted].");
  EXPECT_EQ(redact_secret("nothing here", "sk-123456"), "nothing here");
  EXPECT_EQ(redact_secret("a b c", ""), "a b c");
  EXPECT_EQ(redact_secret("xxxxxxxx", "xxxx"), "[redacted][redacted]");
}

}  // namespace config_test
}  // namespace kopt
