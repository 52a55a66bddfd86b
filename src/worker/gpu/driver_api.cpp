#include "worker/gpu/driver_api.hpp"

#include <cuda_runtime_api.h>

#include <string>

namespace kopt::worker {
namespace {

DriverApi g_api;

template <class Fn>
bool resolve(char const* name, unsigned version, Fn& out) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status{};
  if (cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault, &status) != cudaSuccess ||
      status != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return false;
  }
  out = reinterpret_cast<Fn>(fn);
  return true;
}

}  // namespace

Status load_driver_api() {
  bool ok = resolve("cuModuleLoad", 2000, g_api.module_load);
  ok = resolve("cuModuleGetFunction", 2000, g_api.module_get_function) && ok;
  ok = resolve("cuModuleUnload", 2000, g_api.module_unload) && ok;
  ok = resolve("cuLaunchKernel", 4000, g_api.launch_kernel) && ok;
  ok = resolve("cuFuncSetAttribute", 9000, g_api.func_set_attribute) && ok;
  ok = resolve("cuGetErrorName", 6000, g_api.get_error_name) && ok;
  ok = resolve("cuGetErrorString", 6000, g_api.get_error_string) && ok;
  if (!ok) return make_error(ErrorCode::toolchain_error, "the CUDA driver lacks module/launch entry points");
  resolve("cuFuncGetParamInfo", 12040, g_api.func_get_param_info);
  return Ok{};
}

DriverApi const& driver() {
  return g_api;
}

}  // namespace kopt::worker
