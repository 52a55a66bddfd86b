// probe_toolchain: which host-side CUDA tools are present, their versions, and what each is for.
#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <system_error>
#include <vector>

#include "kopt/text.hpp"
#include "kopt/toolchain.hpp"

namespace kopt {
namespace {

// The first output line mentioning `keyword` (case-insensitive), trimmed; else the first non-empty line.
std::string version_line(std::string const& output, std::string const& keyword) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= output.size()) {
    std::size_t const end = output.find('\n', start);
    std::string line(trim(std::string_view(output).substr(start, end - start)));
    if (!line.empty()) lines.push_back(std::move(line));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  for (auto const& line : lines) {
    if (ascii_lower(line).find(keyword) != std::string::npos) return line;
  }
  return lines.empty() ? std::string() : lines.front();
}

std::optional<std::filesystem::path> locate(std::string const& name,
                                            std::vector<std::filesystem::path> const& extra_dirs) {
  if (auto path = find_program(name)) return path;
  std::error_code ec;
  for (auto const& dir : extra_dirs) {
    auto const candidate = dir / name;
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

// /opt/nvidia/nsight-compute/<version>/ folders, newest (lexicographically last) first.
std::vector<std::filesystem::path> nsight_compute_dirs() {
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  std::filesystem::directory_iterator it("/opt/nvidia/nsight-compute", ec);
  if (ec) return dirs;
  for (auto const& entry : it) {
    if (entry.is_directory(ec)) dirs.push_back(entry.path());
  }
  std::sort(dirs.rbegin(), dirs.rend());
  return dirs;
}

ToolStatus probe_program(std::string const& name, std::vector<std::filesystem::path> const& extra_dirs,
                         std::string const& keyword, std::string const& purpose) {
  ToolStatus status;
  status.name = name;
  auto const path = locate(name, extra_dirs);
  if (!path) {
    status.note = fmt::format("not found on PATH or in the CUDA toolkit; {}", purpose);
    return status;
  }
  status.path = *path;
  CommandResult const run = run_program({path->string(), "--version"});
  if (run.exit_code != 0) {
    status.note = fmt::format("{} --version failed (exit {}); {}", path->string(), run.exit_code, purpose);
    return status;
  }
  status.found = true;
  status.version = version_line(run.output, keyword);
  status.note = purpose;
  return status;
}

template <class Fn>
Fn symbol_as(void* handle, char const* name) {
  return reinterpret_cast<Fn>(dlsym(handle, name));
}

ToolStatus probe_nvrtc(std::filesystem::path const& cuda_home) {
  ToolStatus status;
  status.name = "NVRTC";
  std::vector<std::string> candidates = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
  for (char const* dir : {"lib64", "lib"}) {
    for (char const* file : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) {
      candidates.push_back((cuda_home / dir / file).string());
    }
  }
  for (auto const& candidate : candidates) {
    void* handle = dlopen(candidate.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (handle == nullptr) continue;
    using VersionFn = int (*)(int*, int*);
    auto const version_fn = symbol_as<VersionFn>(handle, "nvrtcVersion");
    int major = 0;
    int minor = 0;
    if (version_fn != nullptr && version_fn(&major, &minor) == 0) {
      status.found = true;
      status.version = fmt::format("{}.{}", major, minor);
      Dl_info info{};
      if (dladdr(reinterpret_cast<void*>(version_fn), &info) != 0 && info.dli_fname != nullptr) {
        status.path = info.dli_fname;
      } else {
        status.path = candidate;
      }
      status.note = "compiles kernel-mode candidates in-process (no nvcc subprocess)";
    }
    dlclose(handle);
    if (status.found) return status;
  }
  status.note = fmt::format(
      "libnvrtc.so not found (searched the loader path and {}/lib64): kernel-mode "
      "candidates cannot be compiled",
      cuda_home.string());
  return status;
}

ToolStatus probe_driver() {
  ToolStatus status;
  status.name = "driver";
  void* handle = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    status.note =
        "no driver: no GPU on this machine (libcuda.so.1 not found); candidates can be compiled "
        "but not run";
    return status;
  }
  using VersionFn = int (*)(int*);
  auto const version_fn = symbol_as<VersionFn>(handle, "cuDriverGetVersion");
  int version = 0;
  if (version_fn != nullptr && version_fn(&version) == 0) {
    status.found = true;
    status.version = fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(version_fn), &info) != 0 && info.dli_fname != nullptr) {
      status.path = info.dli_fname;
    }
    status.note = "CUDA driver API: the worker loads and runs candidates through it";
  } else {
    status.note = "libcuda.so.1 loads but cuDriverGetVersion failed: the driver installation is broken";
  }
  dlclose(handle);
  return status;
}

}  // namespace

std::vector<ToolStatus> probe_toolchain() {
  std::filesystem::path const cuda_home = find_cuda_home();
  std::filesystem::path const cuda_bin = cuda_home / "bin";
  std::vector<ToolStatus> tools;

  tools.push_back(probe_program("nvcc", {cuda_bin}, "release",
                                "builds launcher-mode candidates (extern \"C\" host launcher) into shared "
                                "objects, and the reference/baseline launchers"));
  if (tools.back().path.empty()) {
    tools.back().note =
        "nvcc not found (set CUDA_HOME or put nvcc on PATH): launcher-mode candidates, "
        "references and baselines cannot be built";
  }
  tools.push_back(probe_nvrtc(cuda_home));
  tools.push_back(probe_driver());

  std::vector<std::filesystem::path> ncu_dirs = {cuda_bin};
  for (auto const& dir : nsight_compute_dirs()) ncu_dirs.push_back(dir);
  tools.push_back(probe_program("ncu", ncu_dirs, "version",
                                "optional: Nsight Compute, hardware-counter profiles of candidates"));
  tools.push_back(probe_program("compute-sanitizer", {cuda_bin, cuda_home / "compute-sanitizer"}, "version",
                                "optional: memory and race checking of candidates"));
  tools.push_back(probe_program("cuobjdump", {cuda_bin}, "release",
                                "optional: lists the SASS/PTX inside compiled candidates"));
  tools.push_back(probe_program("nvdisasm", {cuda_bin}, "release", "optional: disassembles CUBINs to SASS"));
  return tools;
}

}  // namespace kopt
