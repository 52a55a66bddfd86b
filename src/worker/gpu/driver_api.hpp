// The few CUDA driver functions the worker needs (module loading, kernel launch), resolved through
// the runtime's cudaGetDriverEntryPointByVersion. Not linking libcuda directly lets the worker start
// on a machine without a driver and say "no GPU" plainly instead of failing to load.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include "kopt/result.hpp"

namespace kopt::worker {

struct DriverApi {
  PFN_cuModuleLoad_v2000 module_load = nullptr;
  PFN_cuModuleGetFunction_v2000 module_get_function = nullptr;
  PFN_cuModuleUnload_v2000 module_unload = nullptr;
  PFN_cuLaunchKernel_v4000 launch_kernel = nullptr;
  PFN_cuFuncSetAttribute_v9000 func_set_attribute = nullptr;
  PFN_cuFuncGetParamInfo_v12040 func_get_param_info = nullptr;  // may be null on old drivers
  PFN_cuGetErrorName_v6000 get_error_name = nullptr;
  PFN_cuGetErrorString_v6000 get_error_string = nullptr;
};

// Resolves once (after the runtime has initialised a device).
Status load_driver_api();
DriverApi const& driver();

}  // namespace kopt::worker
