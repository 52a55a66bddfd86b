// WorkerClient against fake workers: shell scripts that speak the JSON-lines protocol of
// docs/worker-protocol.md the way kopt-worker does (or misbehave the way a broken one would).
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "kopt/worker/client.hpp"
#include "kopt/worker/protocol.hpp"
#include "worker_test_support.hpp"

namespace kopt::worker {
namespace worker_client_test {

using namespace std::chrono_literals;
using nlohmann::json;
using test_support::read_text;
using test_support::TempDir;
using test_support::write_script;

// Every fake worker gets its state folder as its first extra argument ($3, after "--device N") and
// appends its argv to $state/starts, so tests can count (re)starts.
// kPrelude with @PROTOCOL@ replaced by the protocol version kopt speaks.
constexpr char kPrelude[] = R"SH(device="$2"
state="$3"
echo "$*" >> "$state/starts"
id_of() { printf '%s\n' "$1" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p'; }
op_of() { printf '%s\n' "$1" | sed -n 's/.*"op":"\([a-z_]*\)".*/\1/p'; }
hello_reply() {
  echo "{\"reply\":\"hello\",\"id\":0,\"protocol\":@PROTOCOL@,\"idle_sync_us\":3.5,\"device\":{\"index\":$device,\"name\":\"Fake GPU\",\"cc_major\":9,\"cc_minor\":0,\"sm_count\":132,\"l2_bytes\":52428800,\"memory_bytes\":85899345920,\"clock_khz\":1980000,\"driver_version\":13000,\"runtime_version\":13000,\"uuid\":\"GPU-fake\",\"dram_bytes_per_s\":4.0e12,\"fp32_flops_per_s\":6.0e13,\"tensor_flops_per_s\":9.0e14,\"isolation\":\"netns+rlimits\",\"visible_devices\":1}}"
}
good_hello() {
  read -r hello_line
  case "$hello_line" in
    *'"op":"hello"'*'"protocol":@PROTOCOL@'*) ;;
    *) echo "bad hello: $hello_line" >&2; exit 6 ;;
  esac
  hello_reply
}
)SH";

std::string prelude() {
  std::string text = kPrelude;
  std::string const version = std::to_string(kProtocolVersion);
  for (auto at = text.find("@PROTOCOL@"); at != std::string::npos; at = text.find("@PROTOCOL@", at))
    text.replace(at, 10, version);
  return text;
}

// Answers every request with two progress events and a reply that echoes the request.
constexpr char kGoodWorker[] = R"SH(good_hello
while read -r line; do
  id=$(id_of "$line")
  op=$(op_of "$line")
  if [ "$op" = shutdown ]; then echo bye > "$state/shutdown"; exit 0; fi
  echo '{"event":"progress","what":"verify"}'
  echo '{"event":"progress","what":"time"}'
  echo "{\"reply\":\"$op\",\"id\":$id,\"request\":$line}"
done
)SH";

class FakeWorker {
 public:
  explicit FakeWorker(std::string const& body) {
    options_.worker_path = write_script(dir_.path(), "fake-worker", prelude() + body);
    options_.device = 1;
    options_.extra_args = {dir_.path().string()};
    options_.start_timeout = 10s;
  }
  WorkerOptions& options() { return options_; }
  std::filesystem::path const& dir() const { return dir_.path(); }
  int starts() const {
    std::string const text = read_text(dir_.path() / "starts");
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  }

 private:
  TempDir dir_;
  WorkerOptions options_;
};

json evaluate_request() {
  return json{{"op", "evaluate"}, {"seed", 7}, {"sizes", {"small", "large"}}};
}

TEST(WorkerClient, HelloThenRequestReturnsTheReplyAndForwardsEvents) {
  FakeWorker fake(kGoodWorker);
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  EXPECT_EQ(client->device().name, "Fake GPU");
  EXPECT_EQ(client->device().index, 1);  // the fake echoes the --device argument
  EXPECT_EQ(client->device().sm_count, 132);
  EXPECT_EQ(client->device().l2_bytes, 52428800);
  EXPECT_DOUBLE_EQ(client->device().ceilings.dram_bytes_per_s, 4.0e12);
  EXPECT_EQ(read_text(fake.dir() / "starts"), "--device 1 " + fake.dir().string() + "\n");

  std::vector<json> events;
  auto reply = client->request(evaluate_request(), 10s, [&](json const& e) { events.push_back(e); });
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_FALSE(reply->worker_died);
  EXPECT_FALSE(reply->client_timeout);
  EXPECT_EQ(reply->body.value("reply", ""), "evaluate");
  std::int64_t const first_id = reply->body.value("id", std::int64_t{-1});
  EXPECT_GT(first_id, 0);
  json expected_request = evaluate_request();
  expected_request["id"] = first_id;
  EXPECT_EQ(reply->body["request"], expected_request);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].value("what", ""), "verify");
  EXPECT_EQ(events[1].value("what", ""), "time");

  // Ids increase; no callback is fine.
  auto second = client->request(json{{"op", "check_task"}}, 10s);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->body.value("reply", ""), "check_task");
  EXPECT_GT(second->body.value("id", std::int64_t{-1}), first_id);
  EXPECT_EQ(fake.starts(), 1);
}

// A request holding bytes that are not UTF-8 (a file name is any bytes on Linux) cannot be sent as JSON:
// a clear error, and the worker stays usable (nlohmann's dump threw type_error 316, an internal error).
TEST(WorkerClient, ARequestThatIsNotUtf8IsAClearErrorAndTheWorkerStaysUsable) {
  FakeWorker fake(kGoodWorker);
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  json request = evaluate_request();
  request["task_dir"] = std::string("/tmp/task\xff");
  auto refused = client->request(request, 10s);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(refused.error().message.find("'evaluate' request is not valid UTF-8"), std::string::npos)
      << refused.error().message;
  auto reply = client->request(evaluate_request(), 10s);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->body.value("reply", ""), "evaluate");
  EXPECT_EQ(fake.starts(), 1);
}

TEST(WorkerClient, ShutdownSendsShutdownAndTheNextRequestStartsAFreshWorker) {
  FakeWorker fake(kGoodWorker);
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  client->shutdown();
  EXPECT_EQ(read_text(fake.dir() / "shutdown"), "bye\n");
  auto reply = client->request(evaluate_request(), 10s);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_FALSE(reply->worker_died);
  EXPECT_EQ(reply->body.value("reply", ""), "evaluate");
  EXPECT_EQ(fake.starts(), 2);
}

TEST(WorkerClient, WrapperAndExtraArgumentsAreOnTheCommandLine) {
  FakeWorker fake(kGoodWorker);
  fake.options().wrapper = {"/bin/sh"};  // like compute-sanitizer: runs the worker as its argument
  fake.options().device = 3;
  fake.options().extra_args.push_back("--no-calibration");
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  EXPECT_EQ(client->device().index, 3);
  EXPECT_EQ(read_text(fake.dir() / "starts"), "--device 3 " + fake.dir().string() + " --no-calibration\n");
}

TEST(WorkerClient, MissingExecutableIsNotFound) {
  WorkerOptions options;
  options.worker_path = "/nonexistent/dir/kopt-worker";
  auto client = WorkerClient::start(options);
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().code, ErrorCode::not_found);
  EXPECT_NE(client.error().message.find("/nonexistent/dir/kopt-worker"), std::string::npos);
}

TEST(WorkerClient, HelloErrorNoGpuIsNoGpu) {
  FakeWorker fake(R"SH(read -r hello_line
echo '{"reply":"hello","id":0,"error":{"code":"no_gpu","message":"cudaGetDeviceCount: no CUDA-capable device"}}'
read -r never_sent
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().code, ErrorCode::no_gpu);
  EXPECT_EQ(client.error().message, "cudaGetDeviceCount: no CUDA-capable device");
}

TEST(WorkerClient, HelloErrorOtherThanNoGpuIsWorkerError) {
  FakeWorker fake(R"SH(read -r hello_line
echo '{"reply":"hello","id":0,"error":{"code":"worker_error","message":"sandbox setup failed"}}'
read -r never_sent
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().code, ErrorCode::worker_error);
  EXPECT_EQ(client.error().message, "sandbox setup failed");
}

TEST(WorkerClient, ExitCode5BeforeHelloReplyIsNoGpuQuotingStderr) {
  FakeWorker fake(R"SH(read -r hello_line
echo 'kopt-worker: no CUDA-capable device is detected' >&2
exit 5
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().code, ErrorCode::no_gpu);
  EXPECT_NE(client.error().message.find("no CUDA-capable device is detected"), std::string::npos)
      << client.error().message;
}

TEST(WorkerClient, OtherExitBeforeHelloIsWorkerErrorWithTheExitCode) {
  FakeWorker fake(R"SH(read -r hello_line
echo 'kopt-worker: cannot load libcuda.so.1' >&2
exit 1
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().code, ErrorCode::worker_error);
  EXPECT_NE(client.error().message.find("exited with code 1"), std::string::npos) << client.error().message;
  EXPECT_NE(client.error().message.find("cannot load libcuda.so.1"), std::string::npos)
      << client.error().message;
}

TEST(WorkerClient, SilentAtStartIsWorkerErrorAfterTheStartTimeout) {
  FakeWorker fake("read -r hello_line\nread -r never_sent\n");
  fake.options().start_timeout = 200ms;
  auto const start = std::chrono::steady_clock::now();
  auto client = WorkerClient::start(fake.options());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().code, ErrorCode::worker_error);
  EXPECT_NE(client.error().message.find("did not start"), std::string::npos) << client.error().message;
}

TEST(WorkerClient, ProtocolVersionMismatchIsWorkerError) {
  FakeWorker fake(R"SH(read -r hello_line
echo '{"reply":"hello","id":0,"protocol":99,"device":{"name":"Fake GPU"}}'
read -r never_sent
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().code, ErrorCode::worker_error);
  EXPECT_NE(client.error().message.find("protocol 99"), std::string::npos) << client.error().message;
}

TEST(WorkerClient, AHelloReplyWithAnIncompleteDeviceIsRefusedNamingTheField) {
  FakeWorker fake("read -r hello_line\necho '{\"reply\":\"hello\",\"id\":0,\"protocol\":" +
                  std::to_string(kProtocolVersion) +
                  ",\"idle_sync_us\":1.0,\"device\":{\"name\":\"Fake GPU\"}}'\nread -r never_sent\n");
  auto client = WorkerClient::start(fake.options());
  ASSERT_FALSE(client);
  EXPECT_EQ(client.error().code, ErrorCode::worker_error);
  EXPECT_EQ(client.error().message, "malformed hello reply: device.index: missing");
}

TEST(WorkerClient, FatalTimeoutReplyMarksTheWorkerDeadAndTheNextRequestRestartsIt) {
  FakeWorker fake(R"SH(good_hello
n=$(wc -l < "$state/starts")
while read -r line; do
  id=$(id_of "$line")
  op=$(op_of "$line")
  if [ "$n" -eq 1 ]; then
    echo 'watchdog: candidate still running after 2000 ms' >&2
    echo "{\"reply\":\"$op\",\"id\":$id,\"fatal\":\"timeout\",\"message\":\"candidate exceeded 2000 ms\"}"
    exit 3
  fi
  echo "{\"reply\":\"$op\",\"id\":$id,\"start\":$n}"
done
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  auto first = client->request(evaluate_request(), 10s);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(first->worker_died);
  EXPECT_FALSE(first->client_timeout);
  EXPECT_EQ(first->body.value("fatal", ""), "timeout");
  EXPECT_EQ(first->body.value("message", ""), "candidate exceeded 2000 ms");
  EXPECT_TRUE(first->exit.exited);
  EXPECT_EQ(first->exit.code, kExitTimeout);
  EXPECT_NE(first->stderr_tail.find("watchdog: candidate still running"), std::string::npos)
      << first->stderr_tail;
  EXPECT_EQ(fake.starts(), 1);

  auto second = client->request(evaluate_request(), 10s);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_FALSE(second->worker_died);
  EXPECT_EQ(second->body.value("start", 0), 2);
  EXPECT_EQ(second->body.value("reply", ""), "evaluate");
  EXPECT_EQ(fake.starts(), 2);
}

TEST(WorkerClient, RestartReplyAfterAStickyErrorKeepsTheBodyAndRestarts) {
  FakeWorker fake(R"SH(good_hello
while read -r line; do
  id=$(id_of "$line")
  op=$(op_of "$line")
  echo "{\"reply\":\"$op\",\"id\":$id,\"restart\":true,\"candidate\":{\"status\":\"runtime_error\"}}"
  exit 4
done
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  auto first = client->request(evaluate_request(), 10s);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(first->worker_died);
  EXPECT_EQ(first->body["candidate"].value("status", ""), "runtime_error");
  EXPECT_TRUE(first->exit.exited);
  EXPECT_EQ(first->exit.code, kExitStickyError);
  auto second = client->request(evaluate_request(), 10s);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(fake.starts(), 2);
}

TEST(WorkerClient, CrashWithoutReplyReportsTheSignalAndStderr) {
  FakeWorker fake(R"SH(good_hello
n=$(wc -l < "$state/starts")
while read -r line; do
  id=$(id_of "$line")
  op=$(op_of "$line")
  if [ "$n" -eq 1 ]; then
    echo 'candidate dereferenced a wild pointer' >&2
    kill -SEGV $$
  fi
  echo "{\"reply\":\"$op\",\"id\":$id,\"start\":$n}"
done
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  auto first = client->request(evaluate_request(), 10s);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_TRUE(first->worker_died);
  EXPECT_FALSE(first->client_timeout);
  EXPECT_TRUE(first->body.is_null());
  EXPECT_FALSE(first->exit.exited);
  EXPECT_EQ(first->exit.code, SIGSEGV);
  EXPECT_NE(first->stderr_tail.find("wild pointer"), std::string::npos) << first->stderr_tail;

  auto second = client->request(evaluate_request(), 10s);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_FALSE(second->worker_died);
  EXPECT_EQ(second->body.value("start", 0), 2);
}

TEST(WorkerClient, SilentWorkerIsKilledAfterTheIdleTimeout) {
  FakeWorker fake("good_hello\nread -r line\nread -r never_sent\n");
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  auto const start = std::chrono::steady_clock::now();
  auto reply = client->request(evaluate_request(), 200ms);
  auto const elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_TRUE(reply->client_timeout);
  EXPECT_TRUE(reply->worker_died);
  EXPECT_FALSE(reply->exit.exited);
  EXPECT_EQ(reply->exit.code, SIGKILL);
  EXPECT_GE(elapsed, 190ms);
  EXPECT_LT(elapsed, 5s);
}

TEST(WorkerClient, ProgressEventsResetTheIdleDeadline) {
  // Five events 0.2 s apart: 1 s in all, longer than the 0.7 s idle timeout, but never idle that long.
  FakeWorker fake(R"SH(good_hello
while read -r line; do
  id=$(id_of "$line")
  op=$(op_of "$line")
  for i in 1 2 3 4 5; do
    sleep 0.2
    echo "{\"event\":\"progress\",\"what\":\"step $i\"}"
  done
  echo "{\"reply\":\"$op\",\"id\":$id,\"done\":true}"
done
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  int events = 0;
  auto reply = client->request(evaluate_request(), 700ms, [&](json const&) { ++events; });
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_FALSE(reply->client_timeout);
  EXPECT_FALSE(reply->worker_died);
  EXPECT_TRUE(reply->body.value("done", false));
  EXPECT_EQ(events, 5);
}

TEST(WorkerClient, NonJsonNullAndForeignRepliesAreIgnored) {
  FakeWorker fake(R"SH(read -r hello_line
echo '========= COMPUTE-SANITIZER'
echo 'null'
echo '{"event":"progress","what":"calibrating"}'
echo '{"reply":"evaluate","id":0}'
hello_reply
while read -r line; do
  id=$(id_of "$line")
  op=$(op_of "$line")
  echo 'not json at all {'
  echo 'null'
  echo '[1,2,3]'
  echo '42'
  echo ''
  echo "{\"reply\":\"$op\",\"id\":999,\"stale\":true}"
  echo "{\"reply\":\"other_op\",\"id\":$id,\"stale\":true}"
  echo "{\"reply\":\"$op\",\"id\":$id,\"answer\":42}"
done
)SH");
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  EXPECT_EQ(client->device().name, "Fake GPU");
  int events = 0;
  auto reply = client->request(evaluate_request(), 10s, [&](json const&) { ++events; });
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_FALSE(reply->worker_died);
  EXPECT_EQ(reply->body.value("answer", 0), 42);
  EXPECT_FALSE(reply->body.contains("stale"));
  EXPECT_EQ(events, 0);
}

// Sets environment variables for one test and restores them afterwards.
class ScopedEnv {
 public:
  void set(std::string const& name, std::string const& value) {
    char const* old = std::getenv(name.c_str());
    saved_.push_back({name, old != nullptr, old != nullptr ? old : ""});
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->existed) {
        ::setenv(it->name.c_str(), it->value.c_str(), 1);
      } else {
        ::unsetenv(it->name.c_str());
      }
    }
  }

 private:
  struct Saved {
    std::string name;
    bool existed = false;
    std::string value;
  };
  std::vector<Saved> saved_;
};

bool has_variable(std::vector<std::string> const& env, std::string const& name) {
  return std::any_of(env.begin(), env.end(),
                     [&](std::string const& e) { return e.rfind(name + "=", 0) == 0; });
}

TEST(WorkerEnvironment, DropsSecretsAndKeepsTheAllowList) {
  ScopedEnv scoped;
  scoped.set("KOPT_LLM_API_KEY", "sk-kopt-secret");
  scoped.set("OPENAI_API_KEY", "sk-openai-secret");
  scoped.set("GITHUB_TOKEN", "ghp-secret");
  scoped.set("KOPT_WORKER_PROBE", "kept");
  scoped.set("CUDA_CACHE_DISABLE", "1");
  if (std::getenv("PATH") == nullptr) scoped.set("PATH", "/usr/bin:/bin");
  std::vector<std::string> const env = worker_environment();
  EXPECT_FALSE(has_variable(env, "KOPT_LLM_API_KEY"));
  EXPECT_FALSE(has_variable(env, "OPENAI_API_KEY"));
  EXPECT_FALSE(has_variable(env, "GITHUB_TOKEN"));
  for (auto const& e : env) EXPECT_EQ(e.find("secret"), std::string::npos) << e;
  EXPECT_NE(std::find(env.begin(), env.end(), std::string("PATH=") + std::getenv("PATH")), env.end());
  EXPECT_NE(std::find(env.begin(), env.end(), "KOPT_WORKER_PROBE=kept"), env.end());
  EXPECT_NE(std::find(env.begin(), env.end(), "CUDA_CACHE_DISABLE=1"), env.end());
}

TEST(WorkerEnvironment, TheWorkerProcessNeverSeesSecrets) {
  ScopedEnv scoped;
  scoped.set("KOPT_LLM_API_KEY", "sk-kopt-secret");
  scoped.set("OPENAI_API_KEY", "sk-openai-secret");
  FakeWorker fake(std::string("env > \"$state/env\"\n") + kGoodWorker);
  auto client = WorkerClient::start(fake.options());
  ASSERT_TRUE(client) << client.error().message;
  client->shutdown();
  std::string const env = read_text(fake.dir() / "env");
  EXPECT_NE(env.find("PATH="), std::string::npos) << env;
  EXPECT_EQ(env.find("KOPT_LLM_API_KEY"), std::string::npos) << env;
  EXPECT_EQ(env.find("OPENAI_API_KEY"), std::string::npos) << env;
  EXPECT_EQ(env.find("secret"), std::string::npos) << env;
}

}  // namespace worker_client_test
}  // namespace kopt::worker
