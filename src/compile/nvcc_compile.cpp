// Launcher mode: a .cu with an extern "C" host launcher, built by nvcc into a shared object.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "compile/backends.hpp"
#include "compile/cache.hpp"
#include "compile/ptxas_resources.hpp"
#include "kopt/toolchain.hpp"

namespace kopt::detail {
namespace {

constexpr std::array<std::string_view, 6> kKnownLibraries = {"cublas", "cublasLt", "cusparse",
                                                             "cufft",  "curand",   "cusolver"};
constexpr double kDefaultTimeoutSeconds = 120.0;

// KOPT_NVCC_TIMEOUT_S overrides the 120 s limit (tests, very large candidates).
double nvcc_timeout_seconds() {
  char const* value = std::getenv("KOPT_NVCC_TIMEOUT_S");
  if (value == nullptr || *value == '\0') return kDefaultTimeoutSeconds;
  char* end = nullptr;
  double const seconds = std::strtod(value, &end);
  return (end != value && seconds > 0) ? seconds : kDefaultTimeoutSeconds;
}

// "sm_90" -> "compute_90", "sm_90a" -> "compute_90a".
std::string virtual_arch(std::string const& arch) {
  return "compute_" + arch.substr(3);
}

std::string gencode_flag(std::string const& value) {
  if (!value.empty() && value.front() == '-') return value;  // already "-gencode=..."
  return "-gencode=" + value;
}

void replace_all(std::string& text, std::string const& from, std::string const& to) {
  if (from.empty()) return;
  for (std::size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
}

std::string log_tail(std::string const& log, std::size_t max_chars) {
  return log.size() <= max_chars ? log : "...\n" + log.substr(log.size() - max_chars);
}

class RemoveOnExit {
 public:
  explicit RemoveOnExit(std::filesystem::path path) : path_(std::move(path)) {}
  RemoveOnExit(RemoveOnExit const&) = delete;
  RemoveOnExit& operator=(RemoveOnExit const&) = delete;
  ~RemoveOnExit() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace

Result<CompileOutcome> compile_launcher_nvcc(CompileRequest const& request, BuildContext const& context) {
  CompileOptions const& options = context.options;
  std::string const name = origin_name(request);
  if (context.nvcc.empty()) {
    return make_error(ErrorCode::toolchain_error,
                      fmt::format("nvcc not found in {}/bin or on PATH: launcher-mode candidates ({}) need "
                                  "nvcc; set CUDA_HOME or CompileOptions.cuda_home",
                                  options.cuda_home.string(), name));
  }
  for (auto const& library : request.libraries) {
    if (std::find(kKnownLibraries.begin(), kKnownLibraries.end(), library) == kKnownLibraries.end()) {
      return make_error(ErrorCode::invalid_argument,
                        fmt::format("{}: unknown library '{}' in libraries (expected one of {})", name,
                                    library, fmt::join(kKnownLibraries, ", ")));
    }
  }

  std::error_code ec;
  std::filesystem::path const work = unique_temporary_path(options.cache_dir / "tmp" / context.key);
  std::filesystem::create_directories(work, ec);
  if (ec) {
    return make_error(ErrorCode::io_error,
                      fmt::format("cannot create the build folder {}: {}", work.string(), ec.message()));
  }
  RemoveOnExit const cleanup(work);
  // nvcc decides by extension: the copy must end in .cu whatever the origin is called.
  std::filesystem::path const file_name = request.origin.empty()
                                              ? std::filesystem::path("candidate.cu")
                                              : std::filesystem::path(request.origin.stem().string() + ".cu");
  std::filesystem::path const source = work / file_name;
  std::filesystem::path const output = work / "candidate.so";
  {
    std::ofstream out(source, std::ios::binary);
    out << request.source;
    out.close();
    if (!out) return make_error(ErrorCode::io_error, fmt::format("cannot write {}", source.string()));
  }

  std::vector<std::string> args = {
      context.nvcc.string(), "-shared", "-Xcompiler", "-fPIC", "-O3", "-std=c++17",
      // Each library keeps its own function-local statics and template statics: GCC makes them
      // STB_GNU_UNIQUE, which the dynamic linker binds process-wide even under RTLD_LOCAL, so the second
      // candidate in a worker got the first one's "shared memory already raised" flag and twiddle cache
      // (found in the fft launchers, 2026-12-03), and a candidate could read a reference's cached state.
      "-Xcompiler", "-fno-gnu-unique",
      // the worker times on cudaStreamPerThread
      "--default-stream", "per-thread",
      // one CUDA runtime in the worker process: the launcher shares the worker's libcudart
      "--cudart", "shared",
      fmt::format("-gencode=arch={},code={}", virtual_arch(options.arch), options.arch)};
  for (auto const& value : options.gencode) args.push_back(gencode_flag(value));
  if (auto const dir = origin_dir(request); !dir.empty()) args.push_back("-I" + dir.string());
  for (auto const& dir : request.include_dirs) args.push_back("-I" + dir.string());
  args.insert(args.end(), request.flags.begin(), request.flags.end());
  args.insert(args.end(), options.extra_flags.begin(), options.extra_flags.end());
  args.insert(args.end(), {"-Xptxas", "-v", "-o", output.string(), source.string()});
  // So that the worker can dlopen the .so (libcudart, vendor libraries) without LD_LIBRARY_PATH.
  args.emplace_back("-Xlinker");
  args.push_back("-rpath=" + (options.cuda_home / "lib64").string());
  for (auto const& library : request.libraries) args.push_back("-l" + library);

  double const timeout_s = nvcc_timeout_seconds();
  CommandResult const run =
      run_program(args, std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000.0)));

  std::string log = run.output;
  replace_all(log, source.string(), name);  // diagnostics name the user's file, not the build copy
  replace_all(log, work.string() + "/", "");
  std::string trimmed = trim_compiler_log(log);
  if (run.timed_out) {
    return compile_failed(
        fmt::format("nvcc timed out after {} s compiling {}\n{}", timeout_s, name, trimmed));
  }
  if (run.exit_code != 0 || !std::filesystem::is_regular_file(output, ec)) {
    if (trimmed.empty()) trimmed = log_tail(log, 4000);
    return compile_failed(
        fmt::format("nvcc failed (exit {}) compiling {}\n{}", run.exit_code, name, trimmed));
  }

  CompileOutcome outcome;
  outcome.ok = true;
  outcome.artifact.mode = CandidateMode::launcher;
  outcome.artifact.path = artifact_path(options.cache_dir, context.key, CandidateMode::launcher);
  outcome.artifact.symbol = request.entry;
  outcome.artifact.key = context.key;
  outcome.artifact.arch = options.arch;
  outcome.artifact.resources = max_resources(parse_ptxas_resources(log, options.arch));
  outcome.diagnostics = trimmed;
  // rename(2) is atomic: a concurrent build of the same key just replaces an identical file.
  std::filesystem::rename(output, outcome.artifact.path, ec);
  if (ec) {
    return make_error(ErrorCode::io_error, fmt::format("cannot move {} to {}: {}", output.string(),
                                                       outcome.artifact.path.string(), ec.message()));
  }
  if (auto status = write_cache_metadata(options.cache_dir, outcome.artifact, outcome.diagnostics); !status) {
    return status.error();
  }
  return outcome;
}

}  // namespace kopt::detail
