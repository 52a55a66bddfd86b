#include "worker/gpu/nvml_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

namespace kopt::worker {
namespace {

// The C prototypes used, as nvml.h declares them (enums are C ints; nvmlDevice_t is a pointer).
using nvmlReturn_t = int;
using nvmlDevice_t = void*;
constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;         // NVML_CLOCK_SM
constexpr int kNvmlClockMem = 2;        // NVML_CLOCK_MEM
constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU

using InitFn = nvmlReturn_t (*)();
using ShutdownFn = nvmlReturn_t (*)();
using HandleByStringFn = nvmlReturn_t (*)(char const*, nvmlDevice_t*);
using EnergyFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*);
using UnsignedFn = nvmlReturn_t (*)(nvmlDevice_t, unsigned*);
using TypedUnsignedFn = nvmlReturn_t (*)(nvmlDevice_t, int, unsigned*);
using ErrorStringFn = char const* (*)(nvmlReturn_t);

template <class Fn>
bool resolve(void* library, char const* name, Fn& out, std::string& missing) {
  out = reinterpret_cast<Fn>(::dlsym(library, name));
  if (out == nullptr) missing += missing.empty() ? name : std::string(", ") + name;
  return out != nullptr;
}

}  // namespace

struct NvmlLibrary::Api {
  void* library = nullptr;
  InitFn init = nullptr;
  ShutdownFn shutdown = nullptr;
  HandleByStringFn by_uuid = nullptr;
  HandleByStringFn by_pci_bus_id = nullptr;
  EnergyFn energy = nullptr;
  UnsignedFn power = nullptr;
  TypedUnsignedFn clock = nullptr;
  TypedUnsignedFn temperature = nullptr;
  ErrorStringFn error_string = nullptr;
  bool initialised = false;

  Error failure(char const* function, nvmlReturn_t code) const {
    char const* text = error_string != nullptr ? error_string(code) : nullptr;
    return make_error(ErrorCode::not_found, fmt::format("NVML {} failed: {} (error {})", function,
                                                        text != nullptr ? text : "unknown error", code));
  }
};

NvmlLibrary::NvmlLibrary(std::unique_ptr<Api> api) : api_(std::move(api)) {}
NvmlLibrary::NvmlLibrary(NvmlLibrary&&) noexcept = default;
NvmlLibrary& NvmlLibrary::operator=(NvmlLibrary&&) noexcept = default;

NvmlLibrary::~NvmlLibrary() {
  if (api_ && api_->initialised) api_->shutdown();
}

Result<NvmlLibrary> NvmlLibrary::load(std::string const& library) {
  auto api = std::make_unique<Api>();
  api->library = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (api->library == nullptr) {
    char const* why = ::dlerror();
    return make_error(ErrorCode::not_found, fmt::format("NVML library '{}' could not be loaded: {}", library,
                                                        why != nullptr ? why : "dlopen failed"));
  }
  std::string missing;
  resolve(api->library, "nvmlInit_v2", api->init, missing);
  resolve(api->library, "nvmlShutdown", api->shutdown, missing);
  resolve(api->library, "nvmlDeviceGetHandleByUUID", api->by_uuid, missing);
  resolve(api->library, "nvmlDeviceGetHandleByPciBusId_v2", api->by_pci_bus_id, missing);
  resolve(api->library, "nvmlDeviceGetTotalEnergyConsumption", api->energy, missing);
  resolve(api->library, "nvmlDeviceGetPowerUsage", api->power, missing);
  resolve(api->library, "nvmlDeviceGetClockInfo", api->clock, missing);
  resolve(api->library, "nvmlDeviceGetTemperature", api->temperature, missing);
  resolve(api->library, "nvmlErrorString", api->error_string, missing);
  if (!missing.empty()) {
    return make_error(
        ErrorCode::not_found,
        fmt::format("NVML library '{}' lacks the functions {} (driver too old?)", library, missing));
  }
  if (nvmlReturn_t const code = api->init(); code != kNvmlSuccess) return api->failure("nvmlInit_v2", code);
  api->initialised = true;
  return NvmlLibrary(std::move(api));
}

Result<NvmlDevice> NvmlLibrary::device_by_uuid(std::string const& uuid) const {
  nvmlDevice_t device = nullptr;
  if (nvmlReturn_t const code = api_->by_uuid(uuid.c_str(), &device); code != kNvmlSuccess)
    return api_->failure("nvmlDeviceGetHandleByUUID", code);
  return NvmlDevice{device};
}

Result<NvmlDevice> NvmlLibrary::device_by_pci_bus_id(std::string const& bus_id) const {
  nvmlDevice_t device = nullptr;
  if (nvmlReturn_t const code = api_->by_pci_bus_id(bus_id.c_str(), &device); code != kNvmlSuccess)
    return api_->failure("nvmlDeviceGetHandleByPciBusId_v2", code);
  return NvmlDevice{device};
}

Result<std::uint64_t> NvmlLibrary::energy_mj(NvmlDevice device) const {
  unsigned long long mj = 0;
  if (nvmlReturn_t const code = api_->energy(device.handle, &mj); code != kNvmlSuccess)
    return api_->failure("nvmlDeviceGetTotalEnergyConsumption", code);
  return static_cast<std::uint64_t>(mj);
}

Result<double> NvmlLibrary::power_watts(NvmlDevice device) const {
  unsigned mw = 0;
  if (nvmlReturn_t const code = api_->power(device.handle, &mw); code != kNvmlSuccess)
    return api_->failure("nvmlDeviceGetPowerUsage", code);
  return static_cast<double>(mw) / 1000.0;
}

Result<unsigned> NvmlLibrary::sm_clock_mhz(NvmlDevice device) const {
  unsigned mhz = 0;
  if (nvmlReturn_t const code = api_->clock(device.handle, kNvmlClockSm, &mhz); code != kNvmlSuccess)
    return api_->failure("nvmlDeviceGetClockInfo(SM)", code);
  return mhz;
}

Result<unsigned> NvmlLibrary::memory_clock_mhz(NvmlDevice device) const {
  unsigned mhz = 0;
  if (nvmlReturn_t const code = api_->clock(device.handle, kNvmlClockMem, &mhz); code != kNvmlSuccess)
    return api_->failure("nvmlDeviceGetClockInfo(MEM)", code);
  return mhz;
}

Result<unsigned> NvmlLibrary::temperature_c(NvmlDevice device) const {
  unsigned celsius = 0;
  if (nvmlReturn_t const code = api_->temperature(device.handle, kNvmlTemperatureGpu, &celsius);
      code != kNvmlSuccess)
    return api_->failure("nvmlDeviceGetTemperature", code);
  return celsius;
}

}  // namespace kopt::worker
