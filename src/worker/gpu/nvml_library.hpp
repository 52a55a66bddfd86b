// NVML, loaded at run time with dlopen("libnvidia-ml.so.1"): the driver ships it, but nvml.h is not part
// of the CUDA toolkit kopt builds with, so the few functions used are declared by hand in the .cpp.
// Nothing here crashes when NVML is missing or a query is unsupported: every call returns an Error whose
// message names the function and NVML's own explanation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "kopt/result.hpp"

namespace kopt::worker {

// An NVML device handle (opaque); valid while the NvmlLibrary that returned it lives.
struct NvmlDevice {
  void* handle = nullptr;
};

class NvmlLibrary {
 public:
  inline static constexpr char const* kDefaultName = "libnvidia-ml.so.1";

  // Loads `library`, resolves the functions and calls nvmlInit_v2. Error (not_found): the library or a
  // function is missing, or NVML would not initialise; the message says which, starting "NVML ".
  static Result<NvmlLibrary> load(std::string const& library = kDefaultName);
  ~NvmlLibrary();  // nvmlShutdown; the library itself stays loaded (NVML may keep threads)
  NvmlLibrary(NvmlLibrary&& other) noexcept;
  NvmlLibrary& operator=(NvmlLibrary&& other) noexcept;
  NvmlLibrary(NvmlLibrary const&) = delete;
  NvmlLibrary& operator=(NvmlLibrary const&) = delete;

  // "GPU-xxxxxxxx-..." as cudaDeviceProp.uuid prints it.
  Result<NvmlDevice> device_by_uuid(std::string const& uuid) const;
  // "0000:3b:00.0" as cudaDeviceGetPCIBusId writes it.
  Result<NvmlDevice> device_by_pci_bus_id(std::string const& bus_id) const;

  Result<std::uint64_t> energy_mj(NvmlDevice device) const;  // total since the driver loaded
  Result<double> power_watts(NvmlDevice device) const;       // about a 100 ms average on Hopper
  Result<unsigned> sm_clock_mhz(NvmlDevice device) const;
  Result<unsigned> memory_clock_mhz(NvmlDevice device) const;
  Result<unsigned> temperature_c(NvmlDevice device) const;  // the GPU die sensor

  struct Api;

 private:
  explicit NvmlLibrary(std::unique_ptr<Api> api);
  std::unique_ptr<Api> api_;
};

}  // namespace kopt::worker
