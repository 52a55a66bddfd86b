// Device buffers for one size case: every task buffer gets its own cudaMalloc with a guard region
// (filled with kGuardByte) before and after its data, so a write out of bounds is detected.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kopt/inputs.hpp"
#include "kopt/result.hpp"
#include "kopt/task.hpp"
#include "worker/gpu/cuda_handles.hpp"

namespace kopt::worker {

struct DeviceBuffer {
  std::string name;
  Role role = Role::input;
  DType dtype = DType::f32;
  std::size_t count = 0;
  std::size_t bytes = 0;
  std::size_t guard = 0;
  DeviceAllocation<std::byte> allocation;  // guard, data, guard
  std::byte* data() const noexcept { return allocation.get() + guard; }
};

class BufferSet {
 public:
  BufferSet() = default;

  // guard_bytes = 0 allocates without guards (reference buffers).
  static Result<BufferSet> allocate(TaskSpec const& task, std::vector<std::size_t> const& counts,
                                    std::size_t guard_bytes);

  std::vector<DeviceBuffer> const& buffers() const noexcept { return buffers_; }
  // Copies inputs and inouts (only inouts with inouts_only); outputs and scratch are left alone.
  Status upload(TrialInputs const& inputs, bool inouts_only = false);
  Status poison_outputs(std::byte pattern);
  // Fills the scratch buffers with `pattern`: before the first run of each verification trial, not between
  // its runs nor before the verification after timing (what the candidate leaves there during timing stays,
  // as a cache of its own in device memory would).
  Status poison_scratch(std::byte pattern);
  Status write_guards();
  // "buffer 'c': 4 bytes written after its end (first at +0)" or nullopt.
  Result<std::optional<std::string>> check_guards() const;
  Result<std::vector<std::byte>> download(std::size_t index) const;
  // Copies buffer `index` into `host`, which holds at least its bytes (page-locked memory: no copy
  // passes through the driver's staging buffers).
  Status download_to(std::size_t index, std::byte* host) const;

 private:
  std::vector<DeviceBuffer> buffers_;  // each frees its memory (cuda_handles.hpp)
};

// The argument array for one call: device pointers and scalar values in signature order, laid out
// as cuLaunchKernel expects (args[i] points at parameter i's value).
class ArgPack {
 public:
  static Result<ArgPack> build(TaskSpec const& task, SizeCase const& size, BufferSet const& buffers);
  void** data() noexcept { return pointers_.data(); }

 private:
  std::vector<std::array<std::byte, 8>> storage_;
  std::vector<void*> pointers_;
};

}  // namespace kopt::worker
