// Launcher mode: nvcc really builds shared objects here (each build takes a few seconds).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "compile_test_support.hpp"
#include "kopt/compile.hpp"

namespace kopt {
namespace nvcc_compile_test {

using testing::make_compiler;
using testing::TempDir;

CompileRequest launcher_request(std::string source, std::string entry) {
  CompileRequest request;
  request.mode = CandidateMode::launcher;
  request.source = std::move(source);
  request.entry = std::move(entry);
  request.origin = "launch.cu";
  return request;
}

constexpr char kLauncher[] = R"(
#include <cuda_runtime.h>
__global__ void add_one(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1.0f;
}
extern "C" void add_one_launch(float* data, int n) {
  add_one<<<(n + 255) / 256, 256, 0, cudaStreamPerThread>>>(data, n);
}
)";

// RTLD_NODELETE: the library stays mapped after dlclose. cuBLAS and cuBLASLt link libstdc++ statically, and
// each copy allocates its exception-handling emergency pool when loaded; unmapped, LeakSanitizer reports
// that memory as leaked from an unknown module (the sanitized build, docs/fuzzing.md).
bool has_symbol(std::filesystem::path const& library, char const* symbol) {
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle == nullptr) {
    ADD_FAILURE() << "dlopen " << library << ": " << dlerror();
    return false;
  }
  bool const found = dlsym(handle, symbol) != nullptr;
  dlclose(handle);
  return found;
}

TEST(NvccCompile, BuildsSharedObjectWithLauncherSymbolAndCachesIt) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome = compiler.compile(launcher_request(kLauncher, "add_one_launch"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->ok) << outcome->diagnostics;
  EXPECT_EQ(outcome->artifact.mode, CandidateMode::launcher);
  EXPECT_EQ(outcome->artifact.symbol, "add_one_launch");
  EXPECT_EQ(outcome->artifact.path, cache.path() / (outcome->artifact.key + ".so"));
  EXPECT_TRUE(has_symbol(outcome->artifact.path, "add_one_launch"));
  EXPECT_FALSE(has_symbol(outcome->artifact.path, "kopt_not_there"));
  EXPECT_GT(outcome->artifact.resources.registers, 0);  // from -Xptxas -v
  EXPECT_EQ(outcome->artifact.resources.stack_bytes, 0);
  EXPECT_EQ(outcome->artifact.resources.spill_stores_bytes, 0);
  EXPECT_TRUE(std::filesystem::is_empty(cache.path() / "tmp"));

  auto again = compiler.compile(launcher_request(kLauncher, "add_one_launch"));
  ASSERT_TRUE(again && again->ok);
  EXPECT_TRUE(again->cache_hit);
  EXPECT_EQ(again->artifact.path, outcome->artifact.path);
  EXPECT_LT(again->compile_ms, 500.0);
}

// Two candidates loaded into one worker must not share state through the statics of inline functions
// (GCC's STB_GNU_UNIQUE symbols are bound process-wide even under RTLD_LOCAL): the fft launchers cached
// "shared memory raised" in such a static, and the second candidate skipped raising its own kernel's.
TEST(NvccCompile, CandidatesLoadedTogetherKeepTheirOwnStatics) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto const build = [&](char const* tag) {
    std::string const source = std::string("// candidate ") + tag + R"(
inline int& calls() {
  static int count = 0;
  return count;
}
extern "C" int next_call() { return ++calls(); }
)";
    auto outcome = compiler.compile(launcher_request(source, "next_call"));
    EXPECT_TRUE(outcome && outcome->ok) << (outcome ? outcome->diagnostics : outcome.error().message);
    return outcome ? outcome->artifact.path : std::filesystem::path();
  };
  std::filesystem::path const first = build("a");
  std::filesystem::path const second = build("b");
  ASSERT_NE(first, second);
  void* a = dlopen(first.c_str(), RTLD_NOW | RTLD_LOCAL);
  void* b = dlopen(second.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(a, nullptr) << dlerror();
  ASSERT_NE(b, nullptr) << dlerror();
  using Next = int (*)();
  auto const next_a = reinterpret_cast<Next>(dlsym(a, "next_call"));
  auto const next_b = reinterpret_cast<Next>(dlsym(b, "next_call"));
  ASSERT_NE(next_a, nullptr);
  ASSERT_NE(next_b, nullptr);
  EXPECT_EQ(next_a(), 1);
  EXPECT_EQ(next_a(), 2);
  EXPECT_EQ(next_b(), 1) << "the second library saw the first one's static";
  dlclose(b);
  dlclose(a);
}

TEST(NvccCompile, LinksCublasWhenAsked) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto request = launcher_request(R"(
#include <cublas_v2.h>
extern "C" int make_handle() {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  cublasDestroy(handle);
  return 0;
}
)",
                                  "make_handle");
  request.libraries = {"cublas"};
  auto outcome = compiler.compile(request);
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->ok) << outcome->diagnostics;
  EXPECT_TRUE(has_symbol(outcome->artifact.path, "make_handle"));
}

TEST(NvccCompile, ErrorsNameTheOriginAndLine) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome =
      compiler.compile(launcher_request("extern \"C\" void f() {\n  undeclared_thing();\n}\n", "f"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_FALSE(outcome->ok);
  EXPECT_NE(outcome->diagnostics.find("launch.cu(2): error"), std::string::npos) << outcome->diagnostics;
  EXPECT_EQ(outcome->diagnostics.find("/tmp/"), std::string::npos) << outcome->diagnostics;
  EXPECT_TRUE(std::filesystem::is_empty(cache.path() / "tmp"));
}

TEST(NvccCompile, UnknownLibraryAndTimeout) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto request = launcher_request("extern \"C\" void f() {}\n", "f");
  request.libraries = {"libfoo"};
  auto unknown = compiler.compile(request);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(unknown.error().message.find("'libfoo'"), std::string::npos);

  request.libraries.clear();
  setenv("KOPT_NVCC_TIMEOUT_S", "0.05", 1);
  auto timed_out = compiler.compile(request);
  unsetenv("KOPT_NVCC_TIMEOUT_S");
  ASSERT_TRUE(timed_out) << timed_out.error().message;
  EXPECT_FALSE(timed_out->ok);
  EXPECT_NE(timed_out->diagnostics.find("nvcc timed out"), std::string::npos) << timed_out->diagnostics;
}

}  // namespace nvcc_compile_test
}  // namespace kopt
