// The two ways of building a candidate. Both return ok=false outcomes for the candidate's own
// errors and an Error only when kopt itself cannot proceed (toolchain broken, cache unwritable).
#pragma once

#include <filesystem>
#include <string>

#include "kopt/compile.hpp"

namespace kopt::detail {

struct BuildContext {
  CompileOptions const& options;      // resolved: arch, cuda_home and cache_dir are set
  std::filesystem::path const& nvcc;  // empty when nvcc was not found
  std::string key;                    // cache key of this request
};

// Kernel mode: NVRTC in-process, CUBIN for options.arch, written to <cache>/<key>.cubin.
Result<CompileOutcome> compile_kernel_nvrtc(CompileRequest const& request, BuildContext const& context);

// Loads and initialises NVRTC by compiling an empty kernel to PTX (result ignored): the first compile of a
// process pays for mapping and initialising the library, so a compile server does it before its first
// request.
void warm_up_nvrtc();

// Launcher mode: nvcc subprocess into <cache>/<key>.so.
Result<CompileOutcome> compile_launcher_nvcc(CompileRequest const& request, BuildContext const& context);

// The outcome of a candidate that did not compile, with the compiler's diagnostics.
inline CompileOutcome compile_failed(std::string diagnostics) {
  CompileOutcome outcome;
  outcome.ok = false;
  outcome.diagnostics = std::move(diagnostics);
  return outcome;
}

// Display name of the request's source in diagnostics ("candidate.cu" when none was given).
std::string origin_name(CompileRequest const& request);

// The folder of the request's source, absolute, or empty when the origin has no folder.
std::filesystem::path origin_dir(CompileRequest const& request);

}  // namespace kopt::detail
