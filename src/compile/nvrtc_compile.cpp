// Kernel mode: device code compiled in-process by NVRTC straight to a CUBIN for one real arch.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nvrtc.h>
#include <re2/re2.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "compile/backends.hpp"
#include "compile/cache.hpp"
#include "compile/ptxas_resources.hpp"

namespace kopt::detail {
namespace {

class ProgramGuard {
 public:
  explicit ProgramGuard(nvrtcProgram program) : program_(program) {}
  ProgramGuard(ProgramGuard const&) = delete;
  ProgramGuard& operator=(ProgramGuard const&) = delete;
  ~ProgramGuard() { nvrtcDestroyProgram(&program_); }

 private:
  nvrtcProgram program_;
};

// NVRTC optimises by default and rejects -O flags.
bool is_optimisation_level(std::string const& flag) {
  static RE2 const level(R"(-O[0-9s]?)", RE2::Latin1);
  return RE2::FullMatch(flag, level);
}

std::string program_log(nvrtcProgram program) {
  std::size_t size = 0;
  if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size == 0) return {};
  std::string log(size, '\0');
  if (nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS) return {};
  while (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

// NVRTC reports a missing name expression from a generated "__nv_name_map" unit; those lines
// (and the echo/caret lines under them) mean nothing to the user and are replaced by one message.
std::string drop_name_map_errors(std::string const& log, bool& had_name_map_error) {
  std::istringstream in(log);
  std::string line;
  std::string kept;
  bool skipping = false;
  while (std::getline(in, line)) {
    if (line.rfind("__nv_name_map", 0) == 0) {
      had_name_map_error = true;
      skipping = true;
      continue;
    }
    if (skipping) {
      // The echoed "#pragma nv_mangled_name" line and its caret, up to the blank separator.
      if (line.find_first_not_of(" \t") == std::string::npos) skipping = false;
      continue;
    }
    kept += line;
    kept += '\n';
  }
  return kept;
}

std::string missing_kernel_message(CompileRequest const& request) {
  return fmt::format("no __global__ function named '{}' in {}", request.entry, origin_name(request));
}

std::string join_notes(std::vector<std::string> const& notes, std::string const& rest) {
  std::string text;
  for (auto const& note : notes) text += note + "\n";
  return text + rest;
}

}  // namespace

Result<CompileOutcome> compile_kernel_nvrtc(CompileRequest const& request, BuildContext const& context) {
  CompileOptions const& options = context.options;
  std::string const name = origin_name(request);
  std::vector<std::string> notes;
  std::vector<std::string> args = {
      "--gpu-architecture=" + options.arch,  // a real arch, so the result is a CUBIN
      "-std=c++17",
      "--include-path=" + (options.cuda_home / "include").string(),  // cuda_bf16.h, cuda_fp16.h, ...
      "-default-device",
      "--ptxas-options=-v",  // resource usage in the log
  };
  if (auto const dir = origin_dir(request); !dir.empty()) args.push_back("--include-path=" + dir.string());
  for (auto const& dir : request.include_dirs) args.push_back("--include-path=" + dir.string());
  std::vector<std::string> flags = request.flags;
  flags.insert(flags.end(), options.extra_flags.begin(), options.extra_flags.end());
  for (auto const& flag : flags) {
    if (is_optimisation_level(flag)) {
      notes.push_back(
          fmt::format("note: ignored {} (NVRTC optimises by default and rejects -O flags)", flag));
      continue;
    }
    args.push_back(flag);
  }
  std::vector<char const*> arg_pointers;
  arg_pointers.reserve(args.size());
  for (auto const& arg : args) arg_pointers.push_back(arg.c_str());

  nvrtcProgram program = nullptr;
  nvrtcResult result =
      nvrtcCreateProgram(&program, request.source.c_str(), name.c_str(), 0, nullptr, nullptr);
  if (result != NVRTC_SUCCESS) {
    return make_error(ErrorCode::toolchain_error, fmt::format("NVRTC could not create a program for {}: {}",
                                                              name, nvrtcGetErrorString(result)));
  }
  ProgramGuard const guard(program);
  result = nvrtcAddNameExpression(program, request.entry.c_str());
  if (result != NVRTC_SUCCESS) {
    return make_error(ErrorCode::toolchain_error,
                      fmt::format("NVRTC rejected the kernel name '{}' of {}: {}", request.entry, name,
                                  nvrtcGetErrorString(result)));
  }
  result = nvrtcCompileProgram(program, static_cast<int>(arg_pointers.size()), arg_pointers.data());
  std::string const log = program_log(program);

  if (result == NVRTC_ERROR_INVALID_OPTION) {
    return compile_failed(join_notes(notes, fmt::format("NVRTC rejected an option among: {}\n{}",
                                                        fmt::join(flags, " "), trim_compiler_log(log))));
  }
  if (result != NVRTC_SUCCESS && result != NVRTC_ERROR_COMPILATION) {
    return make_error(ErrorCode::toolchain_error,
                      fmt::format("NVRTC failed on {}: {}\n{}", name, nvrtcGetErrorString(result), log));
  }
  if (result == NVRTC_ERROR_COMPILATION) {
    bool missing_name = false;
    std::string const cleaned = drop_name_map_errors(log, missing_name);
    std::string diagnostics = trim_compiler_log(cleaned);
    if (diagnostics.empty()) diagnostics = cleaned;
    // Only claim the kernel is missing when the source does not define it either (a syntax error
    // can make NVRTC lose a kernel that is there).
    if (missing_name && detect_mode(request.source, request.entry) != CandidateMode::kernel) {
      diagnostics = missing_kernel_message(request) + "\n" + diagnostics;
    }
    return compile_failed(join_notes(notes, diagnostics));
  }

  char const* lowered = nullptr;
  if (nvrtcGetLoweredName(program, request.entry.c_str(), &lowered) != NVRTC_SUCCESS || lowered == nullptr) {
    return compile_failed(join_notes(notes, missing_kernel_message(request)));
  }
  auto const per_entry = parse_ptxas_resources(log, options.arch);
  auto const entry = per_entry.find(lowered);
  ResourceUsage resources;  // unknown (-1) unless ptxas reported them
  if (entry != per_entry.end()) {
    resources = entry->second;
  } else if (!per_entry.empty()) {
    return compile_failed(join_notes(
        notes, fmt::format("'{}' in {} is not a __global__ function: the CUBIN has no kernel entry '{}'",
                           request.entry, name, lowered)));
  } else {
    // No ptxas report at all: the driver's compute cache answered (see disable_driver_compile_cache).
    // The kernel exists (NVRTC lowered its name); the worker checks it loads.
    notes.emplace_back("note: ptxas reported no resource usage; registers and spills are unknown");
  }

  std::size_t cubin_size = 0;
  if (nvrtcGetCUBINSize(program, &cubin_size) != NVRTC_SUCCESS || cubin_size == 0) {
    return make_error(ErrorCode::toolchain_error,
                      fmt::format("NVRTC produced no CUBIN for {} (arch {})", name, options.arch));
  }
  std::string cubin(cubin_size, '\0');
  if (nvrtcGetCUBIN(program, cubin.data()) != NVRTC_SUCCESS) {
    return make_error(ErrorCode::toolchain_error,
                      fmt::format("NVRTC could not return the CUBIN of {}", name));
  }

  CompileOutcome outcome;
  outcome.ok = true;
  outcome.artifact.mode = CandidateMode::kernel;
  outcome.artifact.path = artifact_path(options.cache_dir, context.key, CandidateMode::kernel);
  outcome.artifact.symbol = lowered;
  outcome.artifact.key = context.key;
  outcome.artifact.arch = options.arch;
  outcome.artifact.resources = resources;
  outcome.diagnostics = join_notes(notes, trim_compiler_log(log));
  if (auto status = write_file_atomically(outcome.artifact.path, cubin); !status) return status.error();
  if (auto status = write_cache_metadata(options.cache_dir, outcome.artifact, outcome.diagnostics); !status) {
    return status.error();
  }
  return outcome;
}

void warm_up_nvrtc() {
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, "extern \"C\" __global__ void kopt_warm_up() {}", "warm_up.cu", 0, nullptr,
                         nullptr) != NVRTC_SUCCESS)
    return;
  char const* const options[] = {"-default-device"};
  (void)nvrtcCompileProgram(program, 1, options);
  nvrtcDestroyProgram(&program);
}

}  // namespace kopt::detail
