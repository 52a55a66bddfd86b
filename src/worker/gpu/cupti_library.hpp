// The CUPTI Activity API, loaded with dlopen so that the worker runs (without kernel activity) where
// libcupti is missing. Only the handful of entry points kernel_activity.cpp needs; the types come from
// <cupti_activity.h>. No CUDA runtime here, so the loader can be tested on a machine without a GPU.
#pragma once

#include <cupti_activity.h>
#include <cupti_version.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kopt/result.hpp"

namespace kopt::worker {

struct CuptiEntryPoints {
  CUptiResult (*get_version)(uint32_t*) = nullptr;
  CUptiResult (*get_result_string)(CUptiResult, char const**) = nullptr;
  CUptiResult (*activity_enable)(CUpti_ActivityKind) = nullptr;
  CUptiResult (*activity_disable)(CUpti_ActivityKind) = nullptr;
  CUptiResult (*activity_register_callbacks)(CUpti_BuffersCallbackRequestFunc,
                                             CUpti_BuffersCallbackCompleteFunc) = nullptr;
  CUptiResult (*activity_flush_all)(uint32_t) = nullptr;
  CUptiResult (*activity_get_next_record)(uint8_t*, size_t, CUpti_Activity**) = nullptr;
};

class CuptiLibrary {
 public:
  // The first of `candidates` that dlopen accepts and that has every entry point and a CUPTI API of this
  // header's major version (record layouts change between majors). not_found names every path tried.
  static Result<std::unique_ptr<CuptiLibrary>> load(std::vector<std::filesystem::path> const& candidates);
  ~CuptiLibrary();
  CuptiLibrary(CuptiLibrary const&) = delete;
  CuptiLibrary& operator=(CuptiLibrary const&) = delete;

  CuptiEntryPoints const& api() const noexcept { return api_; }
  std::filesystem::path const& path() const noexcept { return path_; }
  uint32_t version() const noexcept { return version_; }
  // "CUPTI_ERROR_...: text" for a result (the number when the library has no text for it).
  std::string describe(CUptiResult result) const;

 private:
  CuptiLibrary(void* handle, std::filesystem::path path) : handle_(handle), path_(std::move(path)) {}
  void* handle_;
  std::filesystem::path path_;
  CuptiEntryPoints api_;
  uint32_t version_ = 0;
  bool keep_loaded_ = false;
};

// Where libcupti is looked for: $KOPT_WORKER_CUPTI_LIBRARY when set, then libcupti.so.13 and libcupti.so
// under the CUDA install ($CUDA_HOME, /usr/local/cuda: extras/CUPTI/lib64, lib64, lib), then the plain
// sonames (the loader's own search path).
std::vector<std::filesystem::path> cupti_library_candidates();

}  // namespace kopt::worker
