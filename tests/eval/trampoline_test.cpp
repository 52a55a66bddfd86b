// The launcher trampoline: generated text, and real nvcc builds showing that it links into a loadable
// shared object and that its static assertions reject launchers whose signature differs from the task's.
#include "eval/trampoline.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "eval/artifact_requests.hpp"
#include "eval_test_support.hpp"
#include "kopt/compile.hpp"

namespace kopt {
namespace trampoline_test {

using eval_test::TempDir;
using eval_test::vector_add_task;

TEST(Trampoline, SymbolIsDerivedFromTheEntry) {
  Signature signature;
  signature.function = "softmax";
  EXPECT_EQ(trampoline_symbol(signature), "kopt_trampoline_softmax");
}

TEST(Trampoline, SourceDeclaresTheSymbolAndOneAssertionPerParameter) {
  TaskSpec const task = vector_add_task();
  std::string const source = trampoline_source(task.signature);
  EXPECT_NE(source.find("extern \"C\" int kopt_trampoline_vector_add(void** a)"), std::string::npos)
      << source;
  EXPECT_NE(source.find("launcher 'vector_add' must take the 4 parameters declared in task.toml"),
            std::string::npos);
  EXPECT_NE(source.find("parameter 1 ('c') of 'vector_add' must be a pointer to 4-byte elements (f32)"),
            std::string::npos)
      << source;
  EXPECT_NE(source.find("parameter 4 ('n') of 'vector_add' must be a 4-byte scalar (i32)"), std::string::npos)
      << source;
  EXPECT_NE(source.find("kopt_trampoline_detail::call(&vector_add, a);"), std::string::npos);
  std::size_t asserts = 0;
  for (std::size_t pos = source.find("static_assert("); pos != std::string::npos;
       pos = source.find("static_assert(", pos + 1)) {
    ++asserts;
  }
  EXPECT_EQ(asserts, 6u);  // the return type, the arity, one per parameter
}

TEST(Trampoline, AVectorElementIsCheckedAsOneElementOfItsLanes) {
  auto signature = parse_signature("extern \"C\" void fft(cufftComplex* data, int n)");
  ASSERT_TRUE(signature) << signature.error().message;
  std::string const source = trampoline_source(*signature);
  EXPECT_NE(source.find("matches<0>(&fft, 4, true, 1, 2)"), std::string::npos) << source;
  EXPECT_NE(source.find("('data') of 'fft' must be a pointer to 8-byte elements of 2 x f32"),
            std::string::npos)
      << source;
}

// Builds three launchers for examples/vector_add with nvcc (no GPU needed to compile or to dlopen).
class TrampolineBuild : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cache_ = new TempDir();
    CompileOptions options;
    options.arch = "sm_90";
    options.cache_dir = cache_->path();
    options.jobs = 2;
    auto compiler = Compiler::create(options);
    if (!compiler) {
      setup_error_ = new std::string(compiler.error().message);
      return;
    }
    TaskSpec const task = vector_add_task();
    auto request = [&](std::string const& name, std::string const& text) {
      CandidateSource source;
      source.name = name;
      source.path = cache_->path() / name;
      source.source = text;
      CandidatePlan plan = plan_candidate(task, source, CandidateMode::launcher);
      if (!plan.request) ADD_FAILURE() << plan.failure;
      return plan.request.value_or(CompileRequest{});
    };
    std::vector<CompileRequest> const requests = {
        request("good.cu", R"CU(
__global__ void add_kernel(float* c, const float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  add_kernel<<<(n + 255) / 256, 256>>>(c, a, b, n);
}
)CU"),
        request("arity.cu",
                "extern \"C\" void vector_add(float* c, const float* a, int n) { (void)c; (void)a; "
                "(void)n; }\n"),
        request("types.cu",
                "extern \"C\" void vector_add(double* c, const float* a, int b, double n) { (void)c; "
                "(void)a; (void)b; (void)n; }\n")};
    outcomes_ = new std::vector<Result<CompileOutcome>>(compiler->compile_all(requests));
  }
  static void TearDownTestSuite() {
    delete outcomes_;
    delete setup_error_;
    delete cache_;
    outcomes_ = nullptr;
    setup_error_ = nullptr;
    cache_ = nullptr;
  }
  void SetUp() override {
    if (setup_error_ != nullptr) GTEST_SKIP() << "no usable toolchain: " << *setup_error_;
    ASSERT_NE(outcomes_, nullptr);
    ASSERT_EQ(outcomes_->size(), 3u);
  }
  static CompileOutcome const& outcome(std::size_t i) {
    auto const& result = (*outcomes_)[i];
    if (!result) throw std::runtime_error("kopt could not compile: " + result.error().message);
    return *result;
  }

  static TempDir* cache_;
  static std::string* setup_error_;
  static std::vector<Result<CompileOutcome>>* outcomes_;
};

TempDir* TrampolineBuild::cache_ = nullptr;
std::string* TrampolineBuild::setup_error_ = nullptr;
std::vector<Result<CompileOutcome>>* TrampolineBuild::outcomes_ = nullptr;

TEST_F(TrampolineBuild, MatchingLauncherBuildsASharedObjectExportingTheTrampoline) {
  CompileOutcome const& good = outcome(0);
  ASSERT_TRUE(good.ok) << good.diagnostics;
  EXPECT_EQ(good.artifact.symbol, "kopt_trampoline_vector_add");
  ASSERT_TRUE(std::filesystem::is_regular_file(good.artifact.path)) << good.artifact.path;
  void* handle = ::dlopen(good.artifact.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << ::dlerror();
  EXPECT_NE(::dlsym(handle, "kopt_trampoline_vector_add"), nullptr) << ::dlerror();
  EXPECT_NE(::dlsym(handle, "vector_add"), nullptr) << ::dlerror();
  ::dlclose(handle);
}

TEST_F(TrampolineBuild, LauncherWithAnotherArityFailsWithTheArityAssertion) {
  CompileOutcome const& arity = outcome(1);
  EXPECT_FALSE(arity.ok);
  EXPECT_NE(arity.diagnostics.find("must take the 4 parameters"), std::string::npos) << arity.diagnostics;
}

TEST_F(TrampolineBuild, LauncherWithOtherParameterTypesFailsNamingEachParameter) {
  CompileOutcome const& types = outcome(2);
  EXPECT_FALSE(types.ok);
  std::string const& d = types.diagnostics;
  EXPECT_EQ(d.find("must take the 4 parameters"), std::string::npos) << d;
  EXPECT_NE(d.find("parameter 1 ('c') of 'vector_add' must be a pointer to 4-byte elements"),
            std::string::npos)
      << d;
  EXPECT_EQ(d.find("parameter 2 ('a')"), std::string::npos) << d;
  EXPECT_NE(d.find("parameter 3 ('b') of 'vector_add' must be a pointer"), std::string::npos) << d;
  EXPECT_NE(d.find("parameter 4 ('n') of 'vector_add' must be a 4-byte scalar"), std::string::npos) << d;
}

}  // namespace trampoline_test
}  // namespace kopt
