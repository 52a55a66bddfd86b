#include "worker/gpu/callable.hpp"

#include <dlfcn.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "worker/gpu/cuda_errors.hpp"
#include "worker/gpu/cuda_handles.hpp"
#include "worker/gpu/driver_api.hpp"

namespace kopt::worker {
namespace {

std::string driver_error_text(CUresult result) {
  char const* name = nullptr;
  char const* text = nullptr;
  driver().get_error_name(result, &name);
  driver().get_error_string(result, &text);
  return std::string(name != nullptr ? name : "CUDA_ERROR") + ": " + (text != nullptr ? text : "");
}

cudaError_t to_runtime_error(CUresult result) {
  switch (result) {
    case CUDA_SUCCESS: return cudaSuccess;
    case CUDA_ERROR_INVALID_VALUE: return cudaErrorInvalidValue;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return cudaErrorLaunchOutOfResources;
    case CUDA_ERROR_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case CUDA_ERROR_LAUNCH_FAILED: return cudaErrorLaunchFailure;
    case CUDA_ERROR_INVALID_HANDLE: return cudaErrorInvalidResourceHandle;
    case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: return cudaErrorStreamCaptureUnsupported;
    case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED: return cudaErrorStreamCaptureInvalidated;
    default: return cudaErrorInvalidConfiguration;
  }
}

class LauncherCallable final : public Callable {
 public:
  using Entry = int (*)(void**);  // the trampoline: the launcher's cudaError_t, 0 for a void launcher
  LauncherCallable(void* handle, Entry entry) : handle_(handle), entry_(entry) {}
  ~LauncherCallable() override {
    if (handle_ != nullptr) dlclose(handle_);
  }
  LauncherCallable(LauncherCallable const&) = delete;
  LauncherCallable& operator=(LauncherCallable const&) = delete;

  Status prepare(ScalarEnv const& /*env*/) override { return Ok{}; }
  cudaError_t call(void** args) override {
    // A launcher that returns cudaGetLastError() has cleared the error it reports: its return value counts.
    if (int const status = entry_(args); status != 0) return static_cast<cudaError_t>(status);
    return cudaPeekAtLastError();
  }

 private:
  void* handle_;
  Entry entry_;
};

class KernelCallable final : public Callable {
 public:
  KernelCallable(CudaModule module, CUfunction function, ArtifactRef ref)
      : module_(std::move(module)), function_(function), ref_(std::move(ref)) {}
  KernelCallable(KernelCallable const&) = delete;
  KernelCallable& operator=(KernelCallable const&) = delete;
  ~KernelCallable() override = default;

  Status prepare(ScalarEnv const& env) override {
    auto eval_dims = [&env](std::vector<std::string> const& exprs, char const* what,
                            std::array<unsigned, 3>& dims) -> Status {
      dims = {1, 1, 1};
      if (exprs.empty() || exprs.size() > 3) {
        return make_error(ErrorCode::invalid_spec, std::string(what) + " needs 1 to 3 dimensions");
      }
      for (std::size_t i = 0; i < exprs.size(); ++i) {
        auto parsed = Expr::parse(exprs[i]);
        if (!parsed)
          return make_error(ErrorCode::invalid_spec, std::string(what) + ": " + parsed.error().message);
        auto value = parsed->evaluate(env);
        if (!value)
          return make_error(ErrorCode::invalid_spec, std::string(what) + ": " + value.error().message);
        if (*value <= 0 || *value > 0x7fffffff) {
          return make_error(ErrorCode::invalid_spec, std::string(what) + " dimension " + std::to_string(i) +
                                                         " = '" + exprs[i] + "' evaluates to " +
                                                         std::to_string(*value));
        }
        dims[i] = static_cast<unsigned>(*value);
      }
      return Ok{};
    };
    if (auto st = eval_dims(ref_.grid, "grid", grid_); !st) return st;
    if (auto st = eval_dims(ref_.block, "block", block_); !st) return st;
    auto smem = Expr::parse(ref_.shared_bytes);
    if (!smem) return make_error(ErrorCode::invalid_spec, "shared_bytes: " + smem.error().message);
    auto smem_value = smem->evaluate(env);
    if (!smem_value || *smem_value < 0) {
      return make_error(ErrorCode::invalid_spec,
                        "shared_bytes '" + ref_.shared_bytes + "' is not a valid size");
    }
    if (auto st = compute_arguments(env); !st) return st;
    shared_ = static_cast<unsigned>(*smem_value);
    if (shared_ > 48 * 1024) {
      driver().func_set_attribute(function_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                  static_cast<int>(shared_));
    }
    return Ok{};
  }

  cudaError_t call(void** args) override {
    void** kernel_args = args;
    if (!ref_.arguments.empty()) {
      for (std::size_t i = 0; i < ref_.arguments.size(); ++i) {
        int const parameter = ref_.arguments[i].parameter;
        if (rounded_[i]) {  // a double parameter, rounded to the kernel's float
          auto const value = static_cast<float>(*static_cast<double const*>(args[parameter]));
          std::memcpy(computed_[i].data(), &value, sizeof value);
        }
        argument_pointers_[i] = parameter >= 0 && !rounded_[i] ? args[parameter] : computed_[i].data();
      }
      kernel_args = argument_pointers_.data();
    }
    CUresult r = driver().launch_kernel(function_, grid_[0], grid_[1], grid_[2], block_[0], block_[1],
                                        block_[2], shared_, CU_STREAM_PER_THREAD, kernel_args, nullptr);
    if (r != CUDA_SUCCESS) return to_runtime_error(r);
    return cudaPeekAtLastError();
  }

 private:
  // The computed arguments' values for this size case, in the kernel parameter's type
  // (ArtifactRef::arguments).
  Status compute_arguments(ScalarEnv const& env) {
    computed_.assign(ref_.arguments.size(), {});
    argument_pointers_.assign(ref_.arguments.size(), nullptr);
    rounded_.assign(ref_.arguments.size(), false);
    for (std::size_t i = 0; i < ref_.arguments.size(); ++i) {
      KernelArgumentRef const& a = ref_.arguments[i];
      rounded_[i] = a.parameter >= 0 && a.type == "f32";  // decided here, not on every launch
      if (a.parameter >= 0) continue;
      auto& bytes = computed_[i];
      auto const store = [&bytes](auto value) { std::memcpy(bytes.data(), &value, sizeof value); };
      if (a.type == "f32" || a.type == "f64") {
        double const number = std::strtod(a.value.c_str(), nullptr);
        a.type == "f32" ? store(static_cast<float>(number)) : store(number);
        continue;
      }
      auto parsed = Expr::parse(a.value);
      auto value = parsed ? parsed->evaluate(env) : Result<std::int64_t>(parsed.error());
      if (!value) {
        return make_error(ErrorCode::invalid_spec, "kernel argument " + std::to_string(i + 1) + " '" +
                                                       a.value + "': " + value.error().message);
      }
      if (a.type == "i32")
        store(static_cast<std::int32_t>(*value));
      else if (a.type == "u32")
        store(static_cast<std::uint32_t>(*value));
      else if (a.type == "u64")
        store(static_cast<std::uint64_t>(*value));
      else
        store(*value);
    }
    return Ok{};
  }

  CudaModule module_;  // the CUBIN, unloaded with the callable
  CUfunction function_;
  ArtifactRef ref_;
  std::array<unsigned, 3> grid_{1, 1, 1};
  std::array<unsigned, 3> block_{1, 1, 1};
  unsigned shared_ = 0;
  std::vector<std::array<unsigned char, 8>> computed_;  // by kernel argument: computed values, conversions
  std::vector<bool> rounded_;  // by kernel argument: a double parameter passed to a float (`f32(alpha)`)
  std::vector<void*> argument_pointers_;
};

}  // namespace

Result<std::unique_ptr<Callable>> load_callable(ArtifactRef const& ref) {
  if (ref.mode == "launcher") {
    dlerror();
    void* handle = dlopen(ref.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      char const* err = dlerror();
      return make_error(ErrorCode::not_found,
                        std::string("cannot load ") + ref.path + ": " + (err ? err : "?"));
    }
    void* sym = dlsym(handle, ref.symbol.c_str());
    if (sym == nullptr) {
      dlclose(handle);
      return make_error(ErrorCode::not_found, "symbol '" + ref.symbol + "' not found in " + ref.path);
    }
    auto entry = reinterpret_cast<LauncherCallable::Entry>(sym);
    return std::unique_ptr<Callable>(std::make_unique<LauncherCallable>(handle, entry));
  }
  if (ref.mode == "kernel") {
    CUmodule loaded = nullptr;
    CUresult r = driver().module_load(&loaded, ref.path.c_str());
    if (r != CUDA_SUCCESS) {
      return make_error(ErrorCode::not_found, "cannot load CUBIN " + ref.path + ": " + driver_error_text(r));
    }
    CudaModule module(loaded);  // unloaded on every refusal below
    CUfunction function = nullptr;
    r = driver().module_get_function(&function, module.get(), ref.symbol.c_str());
    if (r != CUDA_SUCCESS) {
      return make_error(ErrorCode::not_found,
                        "kernel '" + ref.symbol + "' not found in CUBIN: " + driver_error_text(r));
    }
    if (!ref.param_sizes.empty() && driver().func_get_param_info != nullptr) {
      std::string const expected = ref.arguments.empty() ? "the task's signature" : "the kopt:launch args";
      std::size_t count = 0;
      for (;; ++count) {
        std::size_t offset = 0;
        std::size_t size = 0;
        if (driver().func_get_param_info(function, count, &offset, &size) != CUDA_SUCCESS) break;
        if (count < ref.param_sizes.size() && size != static_cast<std::size_t>(ref.param_sizes[count])) {
          return make_error(ErrorCode::invalid_argument,
                            "kernel parameter " + std::to_string(count + 1) + " is " + std::to_string(size) +
                                " bytes; " + expected + " says " + std::to_string(ref.param_sizes[count]));
        }
      }
      if (count != ref.param_sizes.size()) {
        return make_error(ErrorCode::invalid_argument, "kernel takes " + std::to_string(count) +
                                                           " parameters; " + expected + " has " +
                                                           std::to_string(ref.param_sizes.size()));
      }
    }
    return std::unique_ptr<Callable>(std::make_unique<KernelCallable>(std::move(module), function, ref));
  }
  return make_error(ErrorCode::invalid_argument, "unknown artifact mode '" + ref.mode + "'");
}

}  // namespace kopt::worker
