// The compile cache: keys, hits, KOPT_NO_CACHE, and damaged entries.
#include "compile/cache.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "compile_test_support.hpp"
#include "kopt/compile.hpp"
#include "kopt/sha256.hpp"

namespace kopt {
namespace cache_test {

using testing::kernel_request;
using testing::make_compiler;
using testing::TempDir;

constexpr char kKernel[] = "extern \"C\" __global__ void k(float* o) { o[threadIdx.x] *= 3.0f; }\n";

std::string sha256_hex(std::string const& text) {
  Sha256 hash;
  hash.update(text);
  return hash.hex_digest();
}

TEST(Sha256, MatchesStandardVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // Fed in pieces across the 64-byte block boundary.
  Sha256 pieces;
  std::string const million(1000000, 'a');
  for (std::size_t i = 0; i < million.size(); i += 1000)
    pieces.update(std::string_view(million).substr(i, 1000));
  EXPECT_EQ(pieces.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(CacheKey, EveryInputChangesTheKey) {
  CompileOptions options;
  options.arch = "sm_90";
  auto const request = kernel_request(kKernel, "k");
  std::string const base =
      detail::compute_cache_key(request, options, "release 13.0, V13.0.88", "nvrtc 13.0");
  EXPECT_EQ(base.size(), 32u);
  EXPECT_EQ(base, detail::compute_cache_key(request, options, "release 13.0, V13.0.88", "nvrtc 13.0"));

  auto changed = request;
  changed.flags = {"-DTILE=64"};
  EXPECT_NE(base, detail::compute_cache_key(changed, options, "release 13.0, V13.0.88", "nvrtc 13.0"));
  changed = request;
  changed.source += " ";
  EXPECT_NE(base, detail::compute_cache_key(changed, options, "release 13.0, V13.0.88", "nvrtc 13.0"));
  changed = request;
  changed.mode = CandidateMode::launcher;
  EXPECT_NE(base, detail::compute_cache_key(changed, options, "release 13.0, V13.0.88", "nvrtc 13.0"));
  changed = request;
  changed.libraries = {"cublas"};
  EXPECT_NE(base, detail::compute_cache_key(changed, options, "release 13.0, V13.0.88", "nvrtc 13.0"));
  EXPECT_NE(base, detail::compute_cache_key(request, options, "release 13.1, V13.1.0", "nvrtc 13.0"));
  auto other_arch = options;
  other_arch.arch = "sm_80";
  EXPECT_NE(base, detail::compute_cache_key(request, other_arch, "release 13.0, V13.0.88", "nvrtc 13.0"));
  auto gencode = options;
  gencode.gencode = {"arch=compute_80,code=sm_80"};
  EXPECT_NE(base, detail::compute_cache_key(request, gencode, "release 13.0, V13.0.88", "nvrtc 13.0"));
  // Field boundaries matter: moving a character between two flags is another build.
  auto split_a = request;
  split_a.flags = {"-DA", "B"};
  auto split_b = request;
  split_b.flags = {"-DAB"};
  EXPECT_NE(detail::compute_cache_key(split_a, options, "t", "c"),
            detail::compute_cache_key(split_b, options, "t", "c"));
}

TEST(CompileCache, SecondCompileIsAHit) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto first = compiler.compile(kernel_request(kKernel, "k"));
  ASSERT_TRUE(first && first->ok);
  EXPECT_FALSE(first->cache_hit);
  auto second = compiler.compile(kernel_request(kKernel, "k"));
  ASSERT_TRUE(second && second->ok);
  EXPECT_TRUE(second->cache_hit);
  EXPECT_EQ(second->artifact.key, first->artifact.key);
  EXPECT_EQ(second->artifact.path, first->artifact.path);
  EXPECT_EQ(second->artifact.symbol, first->artifact.symbol);
  EXPECT_EQ(second->artifact.resources.registers, first->artifact.resources.registers);
  EXPECT_LT(second->compile_ms, first->compile_ms);
}

TEST(CompileCache, DifferentFlagsGiveDifferentKeys) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto request = kernel_request(kKernel, "k");
  auto first = compiler.compile(request);
  request.flags = {"-DVARIANT=2"};
  auto second = compiler.compile(request);
  ASSERT_TRUE(first && first->ok && second && second->ok);
  EXPECT_FALSE(second->cache_hit);
  EXPECT_NE(first->artifact.key, second->artifact.key);
  EXPECT_NE(first->artifact.path, second->artifact.path);
}

TEST(CompileCache, NoCacheEnvironmentSkipsReads) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto first = compiler.compile(kernel_request(kKernel, "k"));
  ASSERT_TRUE(first && first->ok);
  setenv("KOPT_NO_CACHE", "1", 1);
  auto second = compiler.compile(kernel_request(kKernel, "k"));
  unsetenv("KOPT_NO_CACHE");
  ASSERT_TRUE(second && second->ok);
  EXPECT_FALSE(second->cache_hit);
  auto third = compiler.compile(kernel_request(kKernel, "k"));
  ASSERT_TRUE(third && third->ok);
  EXPECT_TRUE(third->cache_hit);
}

TEST(CompileCache, DamagedMetadataIsAMiss) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto first = compiler.compile(kernel_request(kKernel, "k"));
  ASSERT_TRUE(first && first->ok);
  std::ofstream(cache.path() / (first->artifact.key + ".json")) << "{ not json";
  auto second = compiler.compile(kernel_request(kKernel, "k"));
  ASSERT_TRUE(second && second->ok) << (second ? second->diagnostics : second.error().message);
  EXPECT_FALSE(second->cache_hit);
  auto third = compiler.compile(kernel_request(kKernel, "k"));
  ASSERT_TRUE(third && third->ok);
  EXPECT_TRUE(third->cache_hit);
}

TEST(CompileCache, DefaultDirectoryFollowsEnvironment) {
  char const* saved = std::getenv("KOPT_CACHE_DIR");
  std::string const saved_value = saved != nullptr ? saved : "";
  setenv("KOPT_CACHE_DIR", "/tmp/kopt-explicit", 1);
  EXPECT_EQ(detail::default_cache_dir(), std::filesystem::path("/tmp/kopt-explicit"));
  unsetenv("KOPT_CACHE_DIR");
  char const* xdg = std::getenv("XDG_CACHE_HOME");
  std::string const xdg_value = xdg != nullptr ? xdg : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(detail::default_cache_dir(), std::filesystem::path("/tmp/xdg/kopt"));
  if (xdg != nullptr) {
    setenv("XDG_CACHE_HOME", xdg_value.c_str(), 1);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
  if (saved != nullptr) setenv("KOPT_CACHE_DIR", saved_value.c_str(), 1);
}

TEST(CompilerCreate, ResolvesDefaultsAndToolkitVersion) {
  TempDir cache;
  auto const dir = cache.path() / "nested" / "cache";
  CompileOptions options;
  options.cache_dir = dir;
  auto compiler = Compiler::create(options);
  ASSERT_TRUE(compiler) << compiler.error().message;
  EXPECT_EQ(compiler->options().arch, "sm_90");
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_GE(compiler->options().jobs, 1u);
  EXPECT_TRUE(std::filesystem::exists(compiler->options().cuda_home / "include" / "cuda_runtime.h"));
  EXPECT_NE(compiler->toolkit_version().find("release 13."), std::string::npos)
      << compiler->toolkit_version();
}

TEST(CompilerCreate, RejectsVirtualArchAndUnwritableCache) {
  TempDir cache;
  CompileOptions options;
  options.arch = "compute_90";
  options.cache_dir = cache.path();
  auto bad_arch = Compiler::create(options);
  ASSERT_FALSE(bad_arch);
  EXPECT_EQ(bad_arch.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(bad_arch.error().message.find("compute_90"), std::string::npos);

  std::ofstream(cache.path() / "file") << "x";
  options.arch.clear();
  options.cache_dir = cache.path() / "file" / "sub";
  auto bad_dir = Compiler::create(options);
  ASSERT_FALSE(bad_dir);
  EXPECT_EQ(bad_dir.error().code, ErrorCode::io_error);
}

TEST(CompileAll, ReturnsResultsInRequestOrder) {
  TempDir cache;
  CompileOptions options;
  options.jobs = 2;
  Compiler const compiler = make_compiler(cache.path(), options);
  std::vector<CompileRequest> requests;
  requests.reserve(4);
  for (int i = 0; i < 4; ++i) {
    requests.push_back(kernel_request("extern \"C\" __global__ void k" + std::to_string(i) +
                                          "(float* o) { o[0] = " + std::to_string(i) + "; }\n",
                                      "k" + std::to_string(i)));
  }
  requests[2].source = "this is not CUDA";
  auto const results = compiler.compile_all(requests);
  ASSERT_EQ(results.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(results[i]) << results[i].error().message;
    if (i == 2) {
      EXPECT_FALSE(results[i]->ok);
      continue;
    }
    ASSERT_TRUE(results[i]->ok) << results[i]->diagnostics;
    EXPECT_EQ(results[i]->artifact.symbol, "k" + std::to_string(i));
  }
  EXPECT_TRUE(compiler.compile_all({}).empty());
}

TEST(CompileAll, ConcurrentBuildsOfOneKeyAgree) {
  TempDir cache;
  CompileOptions options;
  options.jobs = 4;
  Compiler const compiler = make_compiler(cache.path(), options);
  std::vector<CompileRequest> const requests(4, kernel_request(kKernel, "k"));
  auto const results = compiler.compile_all(requests);
  ASSERT_EQ(results.size(), 4u);
  for (auto const& result : results) {
    ASSERT_TRUE(result && result->ok);
    EXPECT_EQ(result->artifact.path, results[0]->artifact.path);
  }
  auto const hit = compiler.compile(requests[0]);
  ASSERT_TRUE(hit && hit->ok);
  EXPECT_TRUE(hit->cache_hit);
  EXPECT_GT(std::filesystem::file_size(hit->artifact.path), 0u);
  // No temporary files are left next to the artifacts.
  for (auto const& entry : std::filesystem::directory_iterator(cache.path())) {
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
  }
}

TEST(CompileRequestChecks, EmptyEntryIsAnError) {
  TempDir cache;
  Compiler const compiler = make_compiler(cache.path());
  auto outcome = compiler.compile(kernel_request(kKernel, ""));
  ASSERT_FALSE(outcome);
  EXPECT_EQ(outcome.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(outcome.error().message.find("entry"), std::string::npos);
}

}  // namespace cache_test
}  // namespace kopt
