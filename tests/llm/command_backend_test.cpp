// The external-command backend: a small shell script in the test's temp dir plays the model.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kopt/llm.hpp"
#include "llm/llm_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace command_backend_test {

using test::simple_request;

std::filesystem::path write_script(std::filesystem::path const& dir, std::string const& name,
                                   std::string const& body) {
  auto path = dir / name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

std::string read_file(std::filesystem::path const& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<std::unique_ptr<LlmBackend>> command_backend(
    std::vector<std::string> argv, CommandInput input,
    std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  LlmConfig config;
  config.kind = LlmKind::command;
  config.command = std::move(argv);
  config.command_input = input;
  config.model = "scripted";
  config.timeouts.overall = timeout;
  return make_llm_backend(config);
}

TEST(CommandBackend, JsonRequestOnStdinReplyFromStdout) {
  test::TempDir dir;
  auto script =
      write_script(dir.path(), "model.sh", "cat > \"$1\"; printf 'the reply\\nwithout final newline'");
  auto llm = command_backend({script.string(), (dir.path() / "stdin.json").string()}, CommandInput::json);
  ASSERT_TRUE(llm) << llm.error().message;
  auto reply = (*llm)->complete(simple_request());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "the reply\nwithout final newline");
  EXPECT_EQ(reply->backend, "command");
  EXPECT_EQ(reply->model, "scripted");
  EXPECT_FALSE(reply->cost_usd.has_value());
  auto sent = nlohmann::json::parse(read_file(dir.path() / "stdin.json"));
  EXPECT_EQ(sent["system"], "You are a CUDA expert.");
  EXPECT_EQ(sent["model"], "scripted");
  EXPECT_EQ(sent["messages"][0]["role"], "user");
  EXPECT_EQ(sent["messages"][0]["text"], "Make this kernel faster.");
  EXPECT_EQ(sent["max_tokens"], 256);
}

TEST(CommandBackend, PlainTextPromptAndProgramLookedUpOnPath) {
  test::TempDir dir;
  auto llm = command_backend({"cat"}, CommandInput::text);
  ASSERT_TRUE(llm) << llm.error().message;
  auto request = simple_request();
  request.messages.push_back({"assistant", "ok"});
  request.messages.push_back({"user", "again"});
  auto reply = (*llm)->complete(request);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text,
            "You are a CUDA expert.\n\nuser:\nMake this kernel faster.\n\nassistant:\nok\n\nuser:\nagain\n");
}

TEST(CommandBackend, LargePromptAndLargeReplyDoNotDeadlock) {
  test::TempDir dir;
  auto script =
      write_script(dir.path(), "big.sh", "wc -c > /dev/null; head -c 300000 /dev/zero | tr '\\0' 'a'");
  auto llm = command_backend({script.string()}, CommandInput::text);
  ASSERT_TRUE(llm) << llm.error().message;
  auto reply = (*llm)->complete(simple_request(std::string(1 << 20, 'p')));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text.size(), 300000U);
}

TEST(CommandBackend, ProgramThatIgnoresStdinDoesNotKillKopt) {
  test::TempDir dir;
  auto script = write_script(dir.path(), "deaf.sh", "echo answer");
  auto llm = command_backend({script.string()}, CommandInput::text);
  ASSERT_TRUE(llm) << llm.error().message;
  auto reply = (*llm)->complete(simple_request(std::string(4 << 20, 'p')));  // more than a pipe holds
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "answer\n");
}

TEST(CommandBackend, FailureReportsTheExitCodeAndStderr) {
  test::TempDir dir;
  auto script = write_script(dir.path(), "fail.sh", "cat > /dev/null; echo 'model not loaded' >&2; exit 3");
  auto llm = command_backend({script.string()}, CommandInput::json);
  ASSERT_TRUE(llm) << llm.error().message;
  auto reply = (*llm)->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("exited with code 3"), std::string::npos) << reply.error().message;
  EXPECT_NE(reply.error().message.find("model not loaded"), std::string::npos) << reply.error().message;
}

TEST(CommandBackend, TimeoutKillsTheCommand) {
  test::TempDir dir;
  auto script = write_script(dir.path(), "slow.sh", "sleep 30; echo never");
  auto llm = command_backend({script.string()}, CommandInput::json, std::chrono::milliseconds(300));
  ASSERT_TRUE(llm) << llm.error().message;
  auto const started = std::chrono::steady_clock::now();
  auto reply = (*llm)->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("timed out after 300 ms"), std::string::npos) << reply.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

TEST(CommandBackend, MissingProgramIsANotFoundConfigError) {
  auto llm = command_backend({"kopt-no-such-llm-program"}, CommandInput::json);
  ASSERT_FALSE(llm);
  EXPECT_EQ(llm.error().code, ErrorCode::not_found);
  EXPECT_NE(llm.error().message.find("KOPT_LLM_COMMAND"), std::string::npos) << llm.error().message;
  auto empty = command_backend({}, CommandInput::json);
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("command (KOPT_LLM_COMMAND): not set"), std::string::npos);
}

}  // namespace command_backend_test
}  // namespace kopt
