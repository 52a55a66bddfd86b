// The compile pool: kernel-mode compiles in kopt-compile processes (the real server binary, built with
// the tests), with crash, hang and protocol failures reported as Errors and the pool recovering.
#include "compile/compile_pool.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "compile/backends.hpp"
#include "compile_test_support.hpp"
#include "kopt/compile.hpp"
#include "kopt/toolchain.hpp"

namespace kopt::testing {
namespace compile_pool_test {

using namespace std::chrono_literals;

std::filesystem::path const kServer = std::filesystem::path(KOPT_BINARY_DIR) / "bin" / "kopt-compile";

#define REQUIRE_SERVER()                 \
  if (!std::filesystem::exists(kServer)) \
  GTEST_SKIP() << "build target kopt-compile first: " << kServer.string()

constexpr char kSmallKernel[] = "extern \"C\" __global__ void k(float* o) { o[threadIdx.x] = 2.0f; }\n";
constexpr char kSyntaxError[] = "extern \"C\" __global__ void k(float* o) { o[0] = 1.0f }\n";

CompileOptions pool_options(unsigned jobs = 1, std::filesystem::path server = kServer) {
  CompileOptions options;
  options.jobs = jobs;
  options.compile_server = std::move(server);
  return options;
}

std::string file_bytes(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A stand-in server: a shell script (for crashes, hangs and broken replies).
std::filesystem::path write_script(std::filesystem::path const& dir, std::string const& name,
                                   std::string const& body) {
  std::filesystem::path path = dir / name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

// A request for the pool directly, as Compiler::compile builds it (resolved options, a cache key).
struct PoolFixture {
  TempDir cache;
  Compiler compiler = make_compiler(cache.path());
  std::filesystem::path no_nvcc;
  std::vector<std::string> keys;

  detail::BuildContext context(std::string const& key) { return {compiler.options(), no_nvcc, key}; }
};

TEST(CompilePool, CompilesAKernelInAServerProcessLikeTheThreadPath) {
  REQUIRE_SERVER();
  TempDir pool_cache;
  TempDir thread_cache;
  Compiler const pooled = make_compiler(pool_cache.path(), pool_options());
  Compiler const threaded = make_compiler(thread_cache.path());
  EXPECT_EQ(pooled.options().compile_server, kServer);
  auto const request = kernel_request(kSmallKernel, "k");
  auto from_pool = pooled.compile(request);
  auto from_threads = threaded.compile(request);
  ASSERT_TRUE(from_pool) << from_pool.error().message;
  ASSERT_TRUE(from_threads) << from_threads.error().message;
  ASSERT_TRUE(from_pool->ok) << from_pool->diagnostics;
  ASSERT_TRUE(from_threads->ok) << from_threads->diagnostics;
  EXPECT_FALSE(from_pool->cache_hit);
  EXPECT_EQ(from_pool->artifact.key, from_threads->artifact.key);
  EXPECT_EQ(from_pool->artifact.symbol, from_threads->artifact.symbol);
  EXPECT_EQ(from_pool->artifact.arch, from_threads->artifact.arch);
  EXPECT_EQ(from_pool->artifact.resources.registers, from_threads->artifact.resources.registers);
  EXPECT_GT(from_pool->artifact.resources.registers, 0);
  EXPECT_EQ(from_pool->artifact.path.parent_path(), pool_cache.path());
  EXPECT_EQ(file_bytes(from_pool->artifact.path), file_bytes(from_threads->artifact.path));
  EXPECT_GT(from_pool->compile_ms, 0.0);

  // The second time the parent's cache answers.
  auto again = pooled.compile(request);
  ASSERT_TRUE(again && again->ok);
  EXPECT_TRUE(again->cache_hit);
}

TEST(CompilePool, ASyntaxErrorComesBackAsACompileFailureWithDiagnostics) {
  REQUIRE_SERVER();
  TempDir cache;
  Compiler const pooled = make_compiler(cache.path(), pool_options());
  auto outcome = pooled.compile(kernel_request(kSyntaxError, "k", "broken.cu"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_FALSE(outcome->ok);
  EXPECT_NE(outcome->diagnostics.find("broken.cu(1): error"), std::string::npos) << outcome->diagnostics;
}

TEST(CompilePool, CompileAllSpreadsOverTheProcessesInRequestOrder) {
  REQUIRE_SERVER();
  TempDir cache;
  Compiler const pooled = make_compiler(cache.path(), pool_options(2));
  std::vector<CompileRequest> requests;
  for (int i = 0; i < 4; ++i) {
    std::string const name = "k" + std::to_string(i);
    requests.push_back(kernel_request(
        "extern \"C\" __global__ void " + name + "(float* o) { o[0] = " + std::to_string(i) + ".0f; }\n",
        name));
  }
  requests.push_back(kernel_request(kSyntaxError, "k"));
  auto const outcomes = pooled.compile_all(requests);
  ASSERT_EQ(outcomes.size(), requests.size());
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(outcomes[i]) << outcomes[i].error().message;
    ASSERT_TRUE(outcomes[i]->ok) << outcomes[i]->diagnostics;
    EXPECT_EQ(outcomes[i]->artifact.symbol, "k" + std::to_string(i));
  }
  ASSERT_TRUE(outcomes[4]);
  EXPECT_FALSE(outcomes[4]->ok);
}

TEST(CompilePool, CompileQueueCompilesInTheServerProcesses) {
  REQUIRE_SERVER();
  TempDir cache;
  TempDir scripts;
  // The real server behind a script that leaves a line per start: proof the queue went through the pool.
  std::filesystem::path const starts = scripts.path() / "starts";
  auto const counting =
      write_script(scripts.path(), "counting-server",
                   "echo started >> '" + starts.string() + "'\nexec '" + kServer.string() + "'");
  CompileQueue queue(make_compiler(cache.path(), pool_options(2, counting)));
  for (int i = 0; i < 3; ++i)
    queue.submit(kernel_request(kSmallKernel, "k", "q" + std::to_string(i) + ".cu"));
  queue.submit(kernel_request(kSyntaxError, "k"));
  for (int i = 0; i < 3; ++i) {
    auto outcome = queue.take(kernel_request(kSmallKernel, "k", "q" + std::to_string(i) + ".cu"));
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_TRUE(outcome->ok) << outcome->diagnostics;
  }
  auto failed = queue.take(kernel_request(kSyntaxError, "k"));
  ASSERT_TRUE(failed) << failed.error().message;
  EXPECT_FALSE(failed->ok);
  std::string const started = file_bytes(starts);
  auto const count = std::count(started.begin(), started.end(), '\n');
  EXPECT_GE(count, 1);
  EXPECT_LE(count, 2);  // at most `jobs` processes, each kept for the next request
}

TEST(CompilePool, CacheHitsNeedNoServerProcess) {
  REQUIRE_SERVER();
  TempDir cache;
  TempDir scripts;
  auto const request = kernel_request(kSmallKernel, "k");
  auto const first = make_compiler(cache.path()).compile(request);  // threads fill the cache
  ASSERT_TRUE(first && first->ok);
  // A server that would fail every request: the hit must not reach it.
  auto const broken = write_script(scripts.path(), "broken-server", "exit 3");
  auto const hit = make_compiler(cache.path(), pool_options(1, broken)).compile(request);
  ASSERT_TRUE(hit) << hit.error().message;
  EXPECT_TRUE(hit->cache_hit);
  EXPECT_EQ(hit->artifact.key, first->artifact.key);
}

TEST(CompilePool, AKilledServerIsReportedAsAnErrorAndReplaced) {
  REQUIRE_SERVER();
  PoolFixture fixture;
  detail::CompilePool pool(kServer, 1);
  auto const request = kernel_request(kSmallKernel, "k", "victim.cu");
  auto first = pool.compile(request, fixture.context("000000000000000000000000000000a1"));
  ASSERT_TRUE(first && first->ok) << (first ? first->diagnostics : first.error().message);
  std::vector<int> const pids = pool.pids();
  ASSERT_EQ(pids.size(), 1u);
  ASSERT_EQ(::kill(pids[0], SIGKILL), 0);

  auto lost = pool.compile(request, fixture.context("000000000000000000000000000000a2"));
  ASSERT_FALSE(lost);
  EXPECT_EQ(lost.error().code, ErrorCode::toolchain_error);
  EXPECT_NE(lost.error().message.find("pid " + std::to_string(pids[0])), std::string::npos)
      << lost.error().message;
  EXPECT_NE(lost.error().message.find("victim.cu"), std::string::npos) << lost.error().message;
  EXPECT_NE(lost.error().message.find("signal 9"), std::string::npos) << lost.error().message;
  EXPECT_TRUE(pool.pids().empty());

  auto recovered = pool.compile(request, fixture.context("000000000000000000000000000000a3"));
  ASSERT_TRUE(recovered) << recovered.error().message;
  EXPECT_TRUE(recovered->ok) << recovered->diagnostics;
  EXPECT_EQ(pool.starts(), 2u);
  ASSERT_EQ(pool.pids().size(), 1u);
  EXPECT_NE(pool.pids()[0], pids[0]);
}

// start_all starts every process up front (their start-up overlaps other work); compiles then use them.
TEST(CompilePool, StartAllStartsEveryProcessBeforeTheFirstCompile) {
  REQUIRE_SERVER();
  PoolFixture fixture;
  detail::CompilePool pool(kServer, 3);
  EXPECT_TRUE(pool.pids().empty());
  pool.start_all();
  EXPECT_EQ(pool.starts(), 3u);
  EXPECT_EQ(pool.pids().size(), 3u);
  pool.start_all();  // nothing more to start
  EXPECT_EQ(pool.starts(), 3u);
  auto compiled =
      pool.compile(kernel_request(kSmallKernel, "k"), fixture.context("000000000000000000000000000000f1"));
  ASSERT_TRUE(compiled && compiled->ok) << (compiled ? compiled->diagnostics : compiled.error().message);
  EXPECT_EQ(pool.starts(), 3u);
}

// The nice value of a running process (field 19 of /proc/PID/stat, after the parenthesised name).
int nice_of(int pid) {
  std::string const stat = file_bytes("/proc/" + std::to_string(pid) + "/stat");
  std::istringstream fields(stat.substr(stat.rfind(')') + 2));
  std::string field;
  for (int i = 3; i <= 19 && fields >> field; ++i) {
  }
  return std::stoi(field);
}

// Started with KOPT_COMPILE_NICE set to `value` (unset when empty); the servers' nice after a compile.
int server_nice_with(char const* value) {
  if (*value != '\0') ::setenv("KOPT_COMPILE_NICE", value, 1);
  PoolFixture fixture;
  detail::CompilePool pool(kServer, 1);
  ::unsetenv("KOPT_COMPILE_NICE");
  auto compiled =
      pool.compile(kernel_request(kSmallKernel, "k"), fixture.context("000000000000000000000000000000f2"));
  EXPECT_TRUE(compiled && compiled->ok) << (compiled ? compiled->diagnostics : compiled.error().message);
  EXPECT_EQ(pool.pids().size(), 1u);
  return pool.pids().empty() ? -100 : nice_of(pool.pids().front());
}

TEST(CompilePool, ServersRunBelowKoptsCpuPriority) {
  REQUIRE_SERVER();
  int const own = ::getpriority(PRIO_PROCESS, 0);
  EXPECT_EQ(server_nice_with(""), std::min(19, own + 10)) << "the default: 10 below kopt";
  EXPECT_EQ(server_nice_with("3"), std::min(19, own + 3));
  EXPECT_EQ(server_nice_with("0"), own) << "0 leaves the priority alone";
  EXPECT_EQ(server_nice_with("lots"), std::min(19, own + 10)) << "a bad value falls back to the default";
}

TEST(CompilePool, AServerThatDiesWhileCompilingIsReportedWithItsStderr) {
  TempDir scripts;
  PoolFixture fixture;
  auto const dying =
      write_script(scripts.path(), "dying-server", "read -r request; echo 'nvrtc blew up' >&2; exit 5");
  detail::CompilePool pool(dying, 1);
  auto lost = pool.compile(kernel_request(kSmallKernel, "k", "cand.cu"),
                           fixture.context("000000000000000000000000000000b1"));
  ASSERT_FALSE(lost);
  EXPECT_NE(lost.error().message.find("died while compiling cand.cu (exited with code 5)"), std::string::npos)
      << lost.error().message;
  EXPECT_NE(lost.error().message.find("nvrtc blew up"), std::string::npos) << lost.error().message;
}

TEST(CompilePool, AHungServerIsStoppedAfterTheTimeout) {
  TempDir scripts;
  PoolFixture fixture;
  auto const hung = write_script(scripts.path(), "hung-server", "exec sleep 30");
  detail::CompilePool pool(hung, 1, 200ms);
  auto const start = std::chrono::steady_clock::now();
  auto lost =
      pool.compile(kernel_request(kSmallKernel, "k"), fixture.context("000000000000000000000000000000c1"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  ASSERT_FALSE(lost);
  EXPECT_NE(lost.error().message.find("did not answer within"), std::string::npos) << lost.error().message;
  EXPECT_TRUE(pool.pids().empty());
}

TEST(CompilePool, AServerThatAnswersNonsenseIsReplaced) {
  TempDir scripts;
  PoolFixture fixture;
  auto const babbling =
      write_script(scripts.path(), "babbling-server", "read -r request; echo hello; sleep 30");
  detail::CompilePool pool(babbling, 1);
  auto lost =
      pool.compile(kernel_request(kSmallKernel, "k"), fixture.context("000000000000000000000000000000d1"));
  ASSERT_FALSE(lost);
  EXPECT_NE(lost.error().message.find("broke the protocol"), std::string::npos) << lost.error().message;
  EXPECT_TRUE(pool.pids().empty());
}

TEST(CompilePool, ASourceThatIsNotUtf8IsCompiledInThisProcess) {
  TempDir scripts;
  PoolFixture fixture;
  auto const broken = write_script(scripts.path(), "broken-server", "exit 3");
  detail::CompilePool pool(broken, 1);
  std::string const source = std::string("// caf\xe9 (Latin-1)\n") + kSmallKernel;
  auto outcome =
      pool.compile(kernel_request(source, "k"), fixture.context("000000000000000000000000000000e1"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_TRUE(outcome->ok) << outcome->diagnostics;
  EXPECT_EQ(pool.starts(), 0u);
}

TEST(CompilePool, AServerThatIsNotThereIsAnErrorAtCreate) {
  TempDir cache;
  auto compiler = Compiler::create(pool_options(1, cache.path() / "no-such-kopt-compile"));
  ASSERT_FALSE(compiler);
  EXPECT_EQ(compiler.error().code, ErrorCode::not_found);
  EXPECT_NE(compiler.error().message.find("CompileOptions.compile_server"), std::string::npos)
      << compiler.error().message;
}

class ScopedEnv {
 public:
  ScopedEnv(char const* name, std::optional<std::string> const& value) : name_(name) {
    if (char const* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(ScopedEnv const&) = delete;
  ScopedEnv& operator=(ScopedEnv const&) = delete;

 private:
  char const* name_;
  std::optional<std::string> old_;
};

TEST(FindCompileServer, HonoursTheEnvironmentOverride) {
  REQUIRE_SERVER();
  {
    ScopedEnv const env("KOPT_COMPILE_SERVER", kServer.string());
    EXPECT_EQ(find_compile_server(), kServer);
  }
  {
    ScopedEnv const env("KOPT_COMPILE_SERVER", "off");
    EXPECT_TRUE(find_compile_server().empty());
  }
  {
    ScopedEnv const env("KOPT_COMPILE_SERVER", "/nonexistent/kopt-compile");
    EXPECT_TRUE(find_compile_server().empty());  // threads, with a note on stderr
  }
  {
    // Unset: next to the running executable (the test binary, which has none beside it).
    ScopedEnv const env("KOPT_COMPILE_SERVER", std::nullopt);
    std::filesystem::path const beside = executable_dir();
    EXPECT_EQ(find_compile_server().empty(), !std::filesystem::exists(beside / "kopt-compile"));
  }
  {
    ScopedEnv const env("KOPT_COMPILE_SERVER", "on");
    EXPECT_EQ(find_compile_server().empty(), !std::filesystem::exists(executable_dir() / "kopt-compile"));
  }
}

}  // namespace compile_pool_test
}  // namespace kopt::testing
