#include "worker/gpu/cupti_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>

namespace kopt::worker {
namespace {

template <class Fn>
bool bind(void* handle, char const* name, Fn& out) {
  void* symbol = dlsym(handle, name);
  if (symbol == nullptr) return false;
  out = reinterpret_cast<Fn>(symbol);
  return true;
}

constexpr uint32_t kApiMajor = CUPTI_API_VERSION / 10000;

}  // namespace

Result<std::unique_ptr<CuptiLibrary>> CuptiLibrary::load(
    std::vector<std::filesystem::path> const& candidates) {
  std::vector<std::string> tried;
  for (auto const& path : candidates) {
    dlerror();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      char const* err = dlerror();
      tried.push_back(fmt::format("{} ({})", path.string(), err != nullptr ? err : "cannot be opened"));
      continue;
    }
    std::unique_ptr<CuptiLibrary> library(new CuptiLibrary(handle, path));
    CuptiEntryPoints& api = library->api_;
    char const* missing = nullptr;  // the first entry point that is not there
    auto need = [&](char const* name, auto& fn) {
      if (missing == nullptr && !bind(handle, name, fn)) missing = name;
    };
    need("cuptiGetVersion", api.get_version);
    need("cuptiGetResultString", api.get_result_string);
    need("cuptiActivityEnable", api.activity_enable);
    need("cuptiActivityDisable", api.activity_disable);
    need("cuptiActivityRegisterCallbacks", api.activity_register_callbacks);
    need("cuptiActivityFlushAll", api.activity_flush_all);
    need("cuptiActivityGetNextRecord", api.activity_get_next_record);
    if (missing != nullptr) {
      tried.push_back(fmt::format("{} (no {})", path.string(), missing));
      continue;  // the destructor closes it
    }
    if (api.get_version(&library->version_) != CUPTI_SUCCESS || library->version_ / 10000 != kApiMajor) {
      tried.push_back(fmt::format("{} (CUPTI API version {}, kopt was built for {}.x)", path.string(),
                                  library->version_, kApiMajor));
      continue;
    }
    library->keep_loaded_ = true;
    return library;
  }
  std::string list;
  for (auto const& t : tried) list += (list.empty() ? "" : "; ") + t;
  return make_error(ErrorCode::not_found,
                    "CUPTI not available: " + (list.empty() ? std::string("no library path to try") : list));
}

CuptiLibrary::~CuptiLibrary() {
  // CUPTI keeps threads and driver callbacks once activity was enabled: unloading it then is unsafe, so a
  // library that loaded stays mapped for the life of the process; only rejected candidates are closed.
  if (handle_ != nullptr && !keep_loaded_) dlclose(handle_);
}

std::string CuptiLibrary::describe(CUptiResult result) const {
  char const* text = nullptr;
  if (api_.get_result_string != nullptr && api_.get_result_string(result, &text) == CUPTI_SUCCESS &&
      text != nullptr) {
    return text;
  }
  return fmt::format("CUPTI error {}", static_cast<int>(result));
}

std::vector<std::filesystem::path> cupti_library_candidates() {
  std::vector<std::filesystem::path> out;
  if (char const* given = std::getenv("KOPT_WORKER_CUPTI_LIBRARY"); given != nullptr && *given != '\0') {
    out.emplace_back(given);
  }
  std::vector<std::filesystem::path> homes;
  if (char const* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') homes.emplace_back(home);
  homes.emplace_back("/usr/local/cuda");
  for (auto const& home : homes) {
    for (char const* dir : {"extras/CUPTI/lib64", "lib64", "lib"}) {
      for (char const* name : {"libcupti.so.13", "libcupti.so"}) out.push_back(home / dir / name);
    }
  }
  out.emplace_back("libcupti.so.13");
  out.emplace_back("libcupti.so");
  return out;
}

}  // namespace kopt::worker
