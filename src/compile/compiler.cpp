// Compiler: resolves the toolchain once, then builds candidates (cached) one by one or in parallel.
#include <fmt/format.h>
#include <nvrtc.h>
#include <re2/re2.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "compile/arch_directive.hpp"
#include "compile/backends.hpp"
#include "compile/cache.hpp"
#include "compile/compile_pool.hpp"
#include "kopt/compile.hpp"
#include "kopt/toolchain.hpp"

namespace kopt {
namespace {

constexpr char kDefaultArch[] = "sm_90";

std::optional<std::string> nvrtc_version() {
  int major = 0;
  int minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return std::nullopt;
  return fmt::format("{}.{}", major, minor);
}

// "Cuda compilation tools, release 13.0, V13.0.88" -> "release 13.0, V13.0.88".
std::optional<std::string> nvcc_release(std::filesystem::path const& nvcc) {
  CommandResult const run = run_program({nvcc.string(), "--version"}, std::chrono::seconds(30));
  if (run.exit_code != 0) return std::nullopt;
  static RE2 const release(R"((release [0-9]+\.[0-9]+, V[0-9.]+))", RE2::Latin1);
  std::string match;
  if (!RE2::PartialMatch(run.output, release, &match)) return std::nullopt;
  return match;
}

bool is_executable(std::filesystem::path const& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
}

Status prepare_cache_dir(std::filesystem::path const& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir / "tmp", ec);
  if (ec) {
    return make_error(
        ErrorCode::io_error,
        fmt::format("cannot create the compile cache {} (CompileOptions.cache_dir / KOPT_CACHE_DIR): {}",
                    dir.string(), ec.message()));
  }
  if (access(dir.c_str(), W_OK) != 0 || access((dir / "tmp").c_str(), W_OK) != 0) {
    return make_error(
        ErrorCode::io_error,
        fmt::format("the compile cache {} is not writable (set KOPT_CACHE_DIR to another folder)",
                    dir.string()));
  }
  return Ok{};
}

}  // namespace

namespace detail {

std::string origin_name(CompileRequest const& request) {
  return request.origin.empty() ? std::string("candidate.cu") : request.origin.string();
}

std::filesystem::path origin_dir(CompileRequest const& request) {
  std::filesystem::path const dir = request.origin.parent_path();
  if (dir.empty()) return {};
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(dir, ec);
  return ec ? dir : absolute;
}

}  // namespace detail

std::string_view to_string(CandidateMode mode) noexcept {
  switch (mode) {
    case CandidateMode::kernel: return "kernel";
    case CandidateMode::launcher: return "launcher";
  }
  return "kernel";
}

namespace {

// On a machine with a GPU driver, NVRTC uses the driver's compute cache (~/.nv/ComputeCache): a
// program it has seen before is answered from there without running ptxas, so `--ptxas-options=-v`
// prints nothing and registers, spills and shared memory go unreported (NVIDIA/cuda-python#1124).
// kopt has its own content-addressed cache, so the driver's adds nothing: it is turned off for this
// process, once, before any compile (CUDA_CACHE_DISABLE is read by the driver and NVRTC).
void disable_driver_compile_cache() {
  static std::once_flag once;
  // Once, before the first compile; kopt reads its own settings from the environment at start-up only.
  std::call_once(once, [] { ::setenv("CUDA_CACHE_DISABLE", "1", 1); });  // NOLINT(concurrency-mt-unsafe)
}

}  // namespace

Result<Compiler> Compiler::create(CompileOptions options) {
  if (options.arch.empty()) options.arch = kDefaultArch;
  static RE2 const real_arch(R"(sm_[0-9]+[a-z]?)", RE2::Latin1);
  if (!RE2::FullMatch(options.arch, real_arch)) {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("CompileOptions.arch: expected a real GPU architecture such as sm_90, got '{}'",
                    options.arch));
  }

  bool const home_given = !options.cuda_home.empty();
  if (!home_given) options.cuda_home = find_cuda_home();
  std::filesystem::path nvcc = options.cuda_home / "bin" / "nvcc";
  if (!is_executable(nvcc)) {
    // A toolkit named explicitly must be used as is; otherwise any nvcc on PATH will do.
    auto const on_path = home_given ? std::nullopt : find_program("nvcc");
    nvcc = on_path ? *on_path : std::filesystem::path();
  }

  disable_driver_compile_cache();
  auto const nvrtc = nvrtc_version();
  if (!nvrtc) {
    return make_error(ErrorCode::toolchain_error,
                      "NVRTC does not work (nvrtcVersion failed): kernel-mode candidates cannot be compiled");
  }
  std::optional<std::string> release;
  if (!nvcc.empty()) release = nvcc_release(nvcc);

  if (options.cache_dir.empty()) options.cache_dir = detail::default_cache_dir();
  if (auto status = prepare_cache_dir(options.cache_dir); !status) return status.error();
  if (options.jobs == 0) options.jobs = std::max(1u, std::thread::hardware_concurrency());
  std::shared_ptr<detail::CompilePool> pool;
  if (!options.compile_server.empty()) {
    auto const server = find_program(options.compile_server.string());
    if (!server) {
      return make_error(
          ErrorCode::not_found,
          fmt::format("CompileOptions.compile_server: '{}' is not an executable file (build target "
                      "kopt-compile, or leave it empty to compile on threads)",
                      options.compile_server.string()));
    }
    options.compile_server = *server;
    pool = std::make_shared<detail::CompilePool>(*server, options.jobs);
    pool->start_all();  // their start-up overlaps the reference build and the inputs
  }

  Compiler compiler;
  compiler.options_ = std::move(options);
  compiler.nvcc_ = nvcc;
  compiler.pool_ = std::move(pool);
  compiler.toolkit_version_ = release ? *release : "NVRTC " + *nvrtc;
  return compiler;
}

Result<CompileOutcome> Compiler::compile(CompileRequest const& request) const {
  auto const start = std::chrono::steady_clock::now();
  auto const elapsed_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  if (request.entry.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("CompileRequest.entry is empty for {}: expected the launcher symbol or the "
                                  "__global__ function name",
                                  detail::origin_name(request)));
  }
  // Kernel-mode output depends on the loaded NVRTC, launcher mode on nvcc (toolkit_version_).
  std::string const compiler_version =
      request.mode == CandidateMode::kernel ? "nvrtc " + nvrtc_version().value_or("?") : "nvcc";
  std::string const key = detail::compute_cache_key(request, options_, toolkit_version_, compiler_version);

  if (detail::cache_reads_enabled()) {
    if (auto hit = detail::read_cache(options_.cache_dir, key, request.mode)) {
      hit->compile_ms = elapsed_ms();
      return std::move(*hit);
    }
  }
  // A `// kopt:arch sm_90a` line builds the candidate for the target's architecture-specific variant.
  auto const arch = detail::requested_arch(request.source, options_.arch);
  if (!arch) {
    CompileOutcome refused;
    refused.diagnostics = detail::origin_name(request) + ": " + arch.error().message;
    refused.compile_ms = elapsed_ms();
    return refused;
  }
  CompileOptions options = options_;
  options.arch = *arch;
  detail::BuildContext const context{options, nvcc_, key};
  Result<CompileOutcome> outcome = request.mode == CandidateMode::launcher
                                       ? detail::compile_launcher_nvcc(request, context)
                                   : pool_ ? pool_->compile(request, context)
                                           : detail::compile_kernel_nvrtc(request, context);
  if (outcome) {
    outcome->compile_ms = elapsed_ms();
    outcome->cache_hit = false;
  }
  return outcome;
}

std::vector<Result<CompileOutcome>> Compiler::compile_all(std::vector<CompileRequest> const& requests) const {
  std::vector<std::optional<Result<CompileOutcome>>> slots(requests.size());
  std::atomic<std::size_t> next{0};
  auto const work = [&] {
    for (std::size_t i = next.fetch_add(1); i < requests.size(); i = next.fetch_add(1)) {
      try {
        slots[i].emplace(compile(requests[i]));
      } catch (std::exception const& error) {
        slots[i].emplace(make_error(
            ErrorCode::internal_error,
            fmt::format("compiling {} threw: {}", detail::origin_name(requests[i]), error.what())));
      }
    }
  };
  std::size_t const thread_count = std::min<std::size_t>(std::max(1u, options_.jobs), requests.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < thread_count; ++t) threads.emplace_back(work);
  work();  // the calling thread takes part
  for (auto& thread : threads) thread.join();

  std::vector<Result<CompileOutcome>> results;
  results.reserve(requests.size());
  for (auto& slot : slots) results.push_back(std::move(*slot));
  return results;
}

}  // namespace kopt
