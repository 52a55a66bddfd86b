// Kernel mode: NVRTC really compiles here (no GPU needed to build a CUBIN).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "compile_test_support.hpp"
#include "kopt/compile.hpp"

namespace kopt {
namespace nvrtc_compile_test {

using testing::kernel_request;
using testing::make_compiler;
using testing::TempDir;

constexpr char kExternCKernel[] = R"(
extern "C" __global__ void scale(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
)";

constexpr char kMangledKernel[] = R"(
__global__ void row_sum(float* out, const float* in, int rows, int cols) {
  __shared__ float partial[256];
  float acc = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += in[blockIdx.x * cols + c];
  partial[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int t = 0; t < blockDim.x; ++t) total += partial[t];
    out[blockIdx.x] = total;
  }
}
)";

std::uintmax_t artifact_size(std::filesystem::path const& path) {
  std::error_code ec;
  auto const size = std::filesystem::file_size(path, ec);
  return ec ? 0 : size;
}

TEST(NvrtcCompile, ExternCKernelGivesCubinAndResources) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome = compiler.compile(kernel_request(kExternCKernel, "scale"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->ok) << outcome->diagnostics;
  EXPECT_FALSE(outcome->cache_hit);
  EXPECT_EQ(outcome->artifact.mode, CandidateMode::kernel);
  EXPECT_EQ(outcome->artifact.symbol, "scale");
  EXPECT_EQ(outcome->artifact.arch, "sm_90");
  EXPECT_EQ(outcome->artifact.path.extension(), ".cubin");
  EXPECT_EQ(outcome->artifact.path.parent_path(), cache.path());
  EXPECT_GT(artifact_size(outcome->artifact.path), 0u);
  // ELF magic: a CUBIN, not PTX.
  std::ifstream in(outcome->artifact.path, std::ios::binary);
  std::string magic(4, '\0');
  in.read(magic.data(), 4);
  EXPECT_EQ(magic, std::string("\x7f"
                               "ELF"));
  EXPECT_TRUE(std::filesystem::exists(cache.path() / (outcome->artifact.key + ".json")));
  EXPECT_GT(outcome->artifact.resources.registers, 0);
  EXPECT_EQ(outcome->artifact.resources.spill_stores_bytes, 0);
  EXPECT_EQ(outcome->artifact.resources.static_shared_bytes, 0);
  EXPECT_EQ(outcome->artifact.resources.stack_bytes, 0);
}

TEST(NvrtcCompile, MangledKernelGetsLoweredNameAndSharedMemory) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome = compiler.compile(kernel_request(kMangledKernel, "row_sum"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->ok) << outcome->diagnostics;
  EXPECT_EQ(outcome->artifact.symbol, "_Z7row_sumPfPKfii");
  EXPECT_GT(outcome->artifact.resources.registers, 0);
  EXPECT_EQ(outcome->artifact.resources.static_shared_bytes, 1024);
}

TEST(NvrtcCompile, TemplateKernelByNameExpression) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome = compiler.compile(kernel_request(
      "template <int B> __global__ void fill(float* out) { out[threadIdx.x] = B; }\n", "fill<64>"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->ok) << outcome->diagnostics;
  EXPECT_EQ(outcome->artifact.symbol, "_Z4fillILi64EEvPf");
}

TEST(NvrtcCompile, RegisterCapShowsSpills) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto request = kernel_request(R"(
extern "C" __global__ void heavy(float* out, const float* in) {
  float acc[48];
#pragma unroll
  for (int i = 0; i < 48; ++i) acc[i] = in[threadIdx.x * 48 + i];
  float total = 0.0f;
#pragma unroll
  for (int i = 0; i < 48; ++i)
#pragma unroll
    for (int j = 0; j < 48; ++j) total += acc[i] * acc[(i + j) % 48];
  out[threadIdx.x] = total;
}
)",
                                "heavy");
  request.flags = {"--maxrregcount=24"};
  auto outcome = compiler.compile(request);
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->ok) << outcome->diagnostics;
  EXPECT_LE(outcome->artifact.resources.registers, 24);
  EXPECT_GT(outcome->artifact.resources.spill_stores_bytes, 0);
  EXPECT_GT(outcome->artifact.resources.spill_loads_bytes, 0);
  EXPECT_GT(outcome->artifact.resources.stack_bytes, 0);
}

TEST(NvrtcCompile, Bf16KernelWithCudaHeaders) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome = compiler.compile(kernel_request(R"(
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern "C" __global__ void to_bf16(__nv_bfloat16* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2bfloat16(in[i] * __half2float(__float2half(0.5f)));
}
)",
                                                 "to_bf16"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_TRUE(outcome->ok) << outcome->diagnostics;
}

TEST(NvrtcCompile, SyntaxErrorGivesLineNumberNotCrash) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome =
      compiler.compile(kernel_request("extern \"C\" __global__ void broken(float* out) {\n"
                                      "  int i = threadIdx.x\n"
                                      "  out[i] = 1.0f;\n"
                                      "}\n",
                                      "broken", "tasks/x/broken.cu"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_FALSE(outcome->ok);
  EXPECT_NE(outcome->diagnostics.find("broken.cu(3): error"), std::string::npos) << outcome->diagnostics;
  EXPECT_TRUE(std::filesystem::is_empty(cache.path() / "tmp"));
  // Nothing is cached for a failed build.
  int artifacts = 0;
  for (auto const& entry : std::filesystem::directory_iterator(cache.path())) {
    if (entry.is_regular_file()) ++artifacts;
  }
  EXPECT_EQ(artifacts, 0);
}

TEST(NvrtcCompile, MissingKernelNameIsAClearFailure) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome = compiler.compile(kernel_request(kExternCKernel, "softmax"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_FALSE(outcome->ok);
  EXPECT_NE(outcome->diagnostics.find("no __global__ function named 'softmax' in cand.cu"), std::string::npos)
      << outcome->diagnostics;
  EXPECT_EQ(outcome->diagnostics.find("__nv_name_map"), std::string::npos) << outcome->diagnostics;
}

TEST(NvrtcCompile, DeviceFunctionIsNotAKernel) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome =
      compiler.compile(kernel_request("__device__ float twice(float x) { return 2.0f * x; }\n"
                                      "__global__ void k(float* o) { o[0] = twice(o[0]); }\n",
                                      "twice"));
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_FALSE(outcome->ok);
  // NVRTC cannot take a device function's address from the host: reported as a missing kernel.
  EXPECT_NE(outcome->diagnostics.find("no __global__ function named 'twice'"), std::string::npos)
      << outcome->diagnostics;
}

TEST(NvrtcCompile, TheDriversComputeCacheIsOffSoPtxasAlwaysReportsResources) {
  TempDir first_cache;
  TempDir second_cache;
  Compiler const first = make_compiler(first_cache.path());
  char const* disabled = std::getenv("CUDA_CACHE_DISABLE");
  ASSERT_NE(disabled, nullptr);  // on a GPU host the driver's cache would otherwise answer a repeat
  EXPECT_STREQ(disabled, "1");
  // The same program twice, in two kopt caches (so kopt's cache cannot answer): both times ptxas ran
  // and reported registers. On a GPU host this failed before the cache was turned off.
  Compiler const second = make_compiler(second_cache.path());
  for (Compiler const* compiler : {&first, &second}) {
    auto outcome = compiler->compile(kernel_request(kExternCKernel, "scale"));
    ASSERT_TRUE(outcome) << outcome.error().message;
    ASSERT_TRUE(outcome->ok) << outcome->diagnostics;
    EXPECT_FALSE(outcome->cache_hit);
    EXPECT_GT(outcome->artifact.resources.registers, 0);
  }
}

TEST(NvrtcCompile, OptimisationFlagsAreDroppedWithANote) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto request = kernel_request(kExternCKernel, "scale");
  request.flags = {"-O3", "-DUNUSED=1"};
  auto outcome = compiler.compile(request);
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_TRUE(outcome->ok) << outcome->diagnostics;
  EXPECT_NE(outcome->diagnostics.find("ignored -O3"), std::string::npos) << outcome->diagnostics;
}

TEST(NvrtcCompile, FlagsReachTheCompiler) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto request = kernel_request(
      "#ifndef TILE\n#error TILE must be defined\n#endif\n"
      "extern \"C\" __global__ void k(float* o) { o[threadIdx.x] = TILE; }\n",
      "k");
  auto without = compiler.compile(request);
  ASSERT_TRUE(without);
  EXPECT_FALSE(without->ok);
  EXPECT_NE(without->diagnostics.find("TILE must be defined"), std::string::npos) << without->diagnostics;
  request.flags = {"-DTILE=64"};
  auto with = compiler.compile(request);
  ASSERT_TRUE(with);
  EXPECT_TRUE(with->ok) << with->diagnostics;
}

TEST(NvrtcCompile, BadOptionIsACandidateFailure) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto request = kernel_request(kExternCKernel, "scale");
  request.flags = {"--no-such-nvrtc-option"};
  auto outcome = compiler.compile(request);
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_FALSE(outcome->ok);
  EXPECT_NE(outcome->diagnostics.find("--no-such-nvrtc-option"), std::string::npos) << outcome->diagnostics;
}

TEST(NvrtcCompile, QuotedIncludeNextToTheSource) {
  TempDir cache;
  TempDir sources;
  std::ofstream(sources.path() / "helper.cuh")
      << "__device__ inline float helper(float x) { return x + 1; }\n";
  Compiler const compiler = make_compiler(cache.path());
  auto outcome = compiler.compile(kernel_request(
      "#include \"helper.cuh\"\nextern \"C\" __global__ void k(float* o) { o[0] = helper(o[0]); }\n", "k",
      (sources.path() / "cand.cu").string()));
  ASSERT_TRUE(outcome) << outcome.error().message;
  EXPECT_TRUE(outcome->ok) << outcome->diagnostics;
}

}  // namespace nvrtc_compile_test
}  // namespace kopt
