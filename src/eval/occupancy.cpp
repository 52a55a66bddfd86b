// Theoretical occupancy from a kernel's static resources, without a GPU: the per-architecture limits of the
// CUDA C++ Programming Guide ("Technical Specifications per Compute Capability") and the allocation rules
// of the CUDA occupancy calculator (cuda_occupancy.h): registers are allocated per warp in units of 256 and
// split over 4 sub-partitions, shared memory per block in units of 128 bytes (256 before sm_80) plus 1 KB
// the system reserves per block from sm_80 on. Shared memory is held against the largest carveout the
// architecture offers (the driver picks it when a kernel needs it), so this is the best the resources allow.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>

#include "kopt/compile_check.hpp"

namespace kopt {
namespace {

struct ArchLimits {
  int number = 0;  // 90 for sm_90
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int shared_per_sm = 0;         // bytes, the largest carveout
  int max_shared_per_block = 0;  // bytes, with the opt-in attribute
  int reserved_shared_per_block = 0;
  int shared_allocation_unit = 0;
};

constexpr int kKiB = 1024;
constexpr int kWarpSize = 32;
constexpr int kRegistersPerSm = 64 * kKiB;
constexpr int kRegistersPerBlock = 64 * kKiB;
constexpr int kRegisterAllocationUnit = 256;  // registers per warp are a multiple of this
constexpr int kRegisterSubPartitions = 4;
constexpr int kMaxThreadsPerBlock = 1024;

constexpr std::array kArchLimits{
    ArchLimits{70, 64, 32, 96 * kKiB, 96 * kKiB, 0, 256},
    ArchLimits{72, 64, 32, 96 * kKiB, 96 * kKiB, 0, 256},
    ArchLimits{75, 32, 16, 64 * kKiB, 64 * kKiB, 0, 256},
    ArchLimits{80, 64, 32, 164 * kKiB, 163 * kKiB, kKiB, 128},
    ArchLimits{86, 48, 16, 100 * kKiB, 99 * kKiB, kKiB, 128},
    ArchLimits{87, 48, 16, 164 * kKiB, 163 * kKiB, kKiB, 128},
    ArchLimits{89, 48, 24, 100 * kKiB, 99 * kKiB, kKiB, 128},
    ArchLimits{90, 64, 32, 228 * kKiB, 227 * kKiB, kKiB, 128},
    ArchLimits{100, 64, 32, 228 * kKiB, 227 * kKiB, kKiB, 128},
    ArchLimits{103, 64, 32, 228 * kKiB, 227 * kKiB, kKiB, 128},
    ArchLimits{120, 48, 32, 128 * kKiB, 99 * kKiB, kKiB, 128},
};

// "sm_90a" -> the limits of sm_90; nullptr for an architecture not in the table.
ArchLimits const* limits_for(std::string_view arch) {
  if (arch.substr(0, 3) != "sm_") return nullptr;
  int number = 0;
  for (std::size_t i = 3; i < arch.size() && arch[i] >= '0' && arch[i] <= '9'; ++i) {
    number = number * 10 + (arch[i] - '0');
  }
  for (ArchLimits const& limits : kArchLimits) {
    if (limits.number == number) return &limits;
  }
  return nullptr;
}

int round_up(int value, int unit) {
  return (value + unit - 1) / unit * unit;
}

std::int64_t round_up(std::int64_t value, std::int64_t unit) {
  return (value + unit - 1) / unit * unit;
}

// Registers allocated to one warp (0 when the count is unknown).
int registers_per_warp(int registers_per_thread) {
  return registers_per_thread > 0 ? round_up(registers_per_thread * kWarpSize, kRegisterAllocationUnit) : 0;
}

}  // namespace

std::optional<OccupancyEstimate> estimate_occupancy(std::string_view arch, ResourceUsage const& resources,
                                                    int block_threads, std::int64_t dynamic_shared_bytes) {
  ArchLimits const* limits = limits_for(arch);
  if (limits == nullptr) return std::nullopt;
  OccupancyEstimate estimate;
  estimate.block_threads = block_threads;
  estimate.dynamic_shared_bytes = dynamic_shared_bytes;
  estimate.max_warps_per_sm = limits->max_warps_per_sm;
  if (block_threads < 1 || block_threads > kMaxThreadsPerBlock) {
    estimate.problem = fmt::format("a block of {} threads cannot launch (1 to {} threads)", block_threads,
                                   kMaxThreadsPerBlock);
    return estimate;
  }
  if (dynamic_shared_bytes < 0) {
    estimate.problem = fmt::format("negative dynamic shared memory ({} bytes)", dynamic_shared_bytes);
    return estimate;
  }
  int const warps = (block_threads + kWarpSize - 1) / kWarpSize;
  estimate.warps_per_block = warps;

  // Registers (cuda_occupancy.h, cudaOccMaxBlocksPerSMRegsLimit).
  int const per_warp = registers_per_warp(resources.registers);
  if (per_warp > 0) {
    int const assumed_per_block = per_warp * round_up(warps, kRegisterSubPartitions);
    if (assumed_per_block > kRegistersPerBlock || per_warp * warps > kRegistersPerBlock) {
      estimate.problem = fmt::format(
          "{} registers per thread x {} threads is more than the {} registers a block may use (too many "
          "resources requested for launch)",
          resources.registers, block_threads, kRegistersPerBlock);
      estimate.limits["registers"] = 0;
    } else {
      int const warps_by_registers =
          (kRegistersPerSm / kRegisterSubPartitions / per_warp) * kRegisterSubPartitions;
      estimate.limits["registers"] = warps_by_registers / warps;
    }
  }
  // Shared memory: static + dynamic + the system's reservation, in allocation units.
  std::int64_t const user_shared = std::max(0, resources.static_shared_bytes) + dynamic_shared_bytes;
  if (user_shared > limits->max_shared_per_block) {
    estimate.problem = fmt::format(
        "{} bytes of shared memory per block (static {} + dynamic {}) is more than "
        "the {} bytes a block may use on {}",
        user_shared, std::max(0, resources.static_shared_bytes), dynamic_shared_bytes,
        limits->max_shared_per_block, arch);
    estimate.limits["shared_mem"] = 0;
  } else {
    std::int64_t const per_block = round_up(user_shared + limits->reserved_shared_per_block,
                                            std::int64_t{limits->shared_allocation_unit});
    estimate.limits["shared_mem"] =
        per_block > 0 ? static_cast<int>(std::min<std::int64_t>(limits->shared_per_sm / per_block, INT_MAX))
                      : limits->max_blocks_per_sm;
  }
  estimate.limits["warps"] = limits->max_warps_per_sm / warps;
  estimate.limits["blocks"] = limits->max_blocks_per_sm;

  int blocks = INT_MAX;
  for (auto const& [name, value] : estimate.limits) blocks = std::min(blocks, value);
  estimate.blocks_per_sm = blocks;
  for (char const* name : {"registers", "shared_mem", "warps", "blocks"}) {
    auto const found = estimate.limits.find(name);
    if (found != estimate.limits.end() && found->second == blocks) estimate.limited_by.emplace_back(name);
  }
  estimate.warps_per_sm = blocks * warps;
  estimate.occupancy_pct = 100.0 * estimate.warps_per_sm / limits->max_warps_per_sm;
  return estimate;
}

std::optional<double> register_bound_occupancy_pct(std::string_view arch, int registers_per_thread) {
  ArchLimits const* limits = limits_for(arch);
  int const per_warp = registers_per_warp(registers_per_thread);
  if (limits == nullptr || per_warp == 0) return std::nullopt;
  int const warps = (kRegistersPerSm / kRegisterSubPartitions / per_warp) * kRegisterSubPartitions;
  return 100.0 * std::min(warps, limits->max_warps_per_sm) / limits->max_warps_per_sm;
}

}  // namespace kopt
