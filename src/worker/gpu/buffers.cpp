#include "worker/gpu/buffers.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <cstring>

#include "kopt/verify.hpp"
#include "worker/gpu/cuda_errors.hpp"

namespace kopt::worker {
namespace {

Error cuda_failure(char const* what, cudaError_t err) {
  return make_error(ErrorCode::worker_error, std::string(what) + ": " + cuda_error_text(err));
}

template <class T>
std::array<std::byte, 8> pack(T value) {
  std::array<std::byte, 8> out{};
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

Status poison_role(std::vector<DeviceBuffer> const& buffers, Role role, std::byte pattern) {
  for (auto const& b : buffers) {
    if (b.role != role || b.bytes == 0) continue;
    if (auto err = cudaMemset(b.data(), std::to_integer<int>(pattern), b.bytes); err != cudaSuccess) {
      return cuda_failure("poison", err);
    }
  }
  return Ok{};
}

}  // namespace

Result<BufferSet> BufferSet::allocate(TaskSpec const& task, std::vector<std::size_t> const& counts,
                                      std::size_t guard_bytes) {
  BufferSet set;
  for (std::size_t i = 0; i < task.buffers.size(); ++i) {
    auto const& spec = task.buffers[i];
    DeviceBuffer b;
    b.name = spec.name;
    b.role = spec.role;
    b.dtype = spec.dtype;
    b.count = counts.at(i);
    b.bytes = b.count * size_of(spec.dtype);
    b.guard = guard_bytes;
    void* ptr = nullptr;
    if (auto err = cudaMalloc(&ptr, b.bytes + 2 * guard_bytes + 16); err != cudaSuccess) {
      cudaGetLastError();
      return make_error(ErrorCode::worker_error, "cannot allocate " + std::to_string(b.bytes) +
                                                     " bytes for buffer '" + b.name +
                                                     "': " + cuda_error_text(err));
    }
    b.allocation.reset(static_cast<std::byte*>(ptr));
    set.buffers_.push_back(std::move(b));
  }
  if (guard_bytes > 0) {
    if (auto st = set.write_guards(); !st) return st.error();
  }
  return set;
}

Status BufferSet::upload(TrialInputs const& inputs, bool inouts_only) {
  for (std::size_t i = 0; i < buffers_.size(); ++i) {
    auto const& b = buffers_[i];
    if (!has_initial_contents(b.role) || (inouts_only && b.role != Role::inout)) continue;
    auto const& host = inputs.buffers.at(i);
    if (host.bytes.size() != b.bytes) {
      return make_error(ErrorCode::internal_error, "input '" + b.name + "' has " +
                                                       std::to_string(host.bytes.size()) +
                                                       " bytes, buffer holds " + std::to_string(b.bytes));
    }
    if (b.bytes == 0) continue;
    if (auto err = cudaMemcpy(b.data(), host.bytes.data(), b.bytes, cudaMemcpyHostToDevice);
        err != cudaSuccess) {
      return cuda_failure("upload", err);
    }
  }
  return Ok{};
}

Status BufferSet::poison_outputs(std::byte pattern) {
  return poison_role(buffers_, Role::output, pattern);
}

Status BufferSet::poison_scratch(std::byte pattern) {
  return poison_role(buffers_, Role::scratch, pattern);
}

Status BufferSet::write_guards() {
  for (auto const& b : buffers_) {
    if (b.guard == 0) continue;
    int const value = std::to_integer<int>(kGuardByte);
    if (auto err = cudaMemset(b.allocation.get(), value, b.guard); err != cudaSuccess)
      return cuda_failure("guard", err);
    if (auto err = cudaMemset(b.data() + b.bytes, value, b.guard); err != cudaSuccess)
      return cuda_failure("guard", err);
  }
  return Ok{};
}

Result<std::optional<std::string>> BufferSet::check_guards() const {
  std::vector<std::byte> host;
  for (auto const& b : buffers_) {
    if (b.guard == 0) continue;
    host.resize(b.guard);
    for (int side = 0; side < 2; ++side) {
      std::byte const* region = side == 0 ? b.allocation.get() : b.data() + b.bytes;
      if (auto err = cudaMemcpy(host.data(), region, b.guard, cudaMemcpyDeviceToHost); err != cudaSuccess) {
        return cuda_failure("guard check", err);
      }
      if (auto bad = find_guard_damage(host)) {
        std::size_t count = 0;
        for (auto byte : host) count += byte != kGuardByte ? 1u : 0u;
        std::string where = side == 0 ? "before its start (at -" + std::to_string(b.guard - *bad) + " bytes)"
                                      : "after its end (first at +" + std::to_string(*bad) + " bytes)";
        return std::optional<std::string>("buffer '" + b.name + "': " + std::to_string(count) +
                                          " guard bytes written " + where);
      }
    }
  }
  return std::optional<std::string>();
}

Result<std::vector<std::byte>> BufferSet::download(std::size_t index) const {
  auto const& b = buffers_.at(index);
  std::vector<std::byte> host(b.bytes);
  if (b.bytes == 0) return host;
  if (auto err = cudaMemcpy(host.data(), b.data(), b.bytes, cudaMemcpyDeviceToHost); err != cudaSuccess) {
    return cuda_failure("download", err);
  }
  return host;
}

Status BufferSet::download_to(std::size_t index, std::byte* host) const {
  auto const& b = buffers_.at(index);
  if (b.bytes == 0) return Ok{};
  if (auto err = cudaMemcpy(host, b.data(), b.bytes, cudaMemcpyDeviceToHost); err != cudaSuccess) {
    return cuda_failure("download", err);
  }
  return Ok{};
}

Result<ArgPack> ArgPack::build(TaskSpec const& task, SizeCase const& size, BufferSet const& buffers) {
  ArgPack pack_out;
  std::size_t buffer_index = 0;
  for (auto const& param : task.signature.params) {
    if (param.is_pointer) {
      void* ptr = buffers.buffers().at(buffer_index++).data();
      pack_out.storage_.push_back(pack(ptr));
      continue;
    }
    if (param.is_stream) {  // the stream the worker verifies and times on
      pack_out.storage_.push_back(pack(static_cast<void*>(cudaStreamPerThread)));
      continue;
    }
    auto it = size.values.find(param.name);
    if (it == size.values.end()) {
      return make_error(ErrorCode::invalid_spec,
                        "size case '" + size.name + "' gives no value for '" + param.name + "'");
    }
    double const as_double = std::visit([](auto v) { return static_cast<double>(v); }, it->second);
    std::int64_t const as_int = std::visit([](auto v) { return static_cast<std::int64_t>(v); }, it->second);
    switch (param.dtype) {
      case DType::f32: pack_out.storage_.push_back(pack(static_cast<float>(as_double))); break;
      case DType::f64: pack_out.storage_.push_back(pack(as_double)); break;
      case DType::i8: pack_out.storage_.push_back(pack(static_cast<std::int8_t>(as_int))); break;
      case DType::u8: pack_out.storage_.push_back(pack(static_cast<std::uint8_t>(as_int))); break;
      case DType::boolean: pack_out.storage_.push_back(pack(as_int != 0)); break;
      case DType::i16: pack_out.storage_.push_back(pack(static_cast<std::int16_t>(as_int))); break;
      case DType::i32: pack_out.storage_.push_back(pack(static_cast<std::int32_t>(as_int))); break;
      case DType::u32: pack_out.storage_.push_back(pack(static_cast<std::uint32_t>(as_int))); break;
      case DType::i64: pack_out.storage_.push_back(pack(as_int)); break;
      case DType::u64: pack_out.storage_.push_back(pack(static_cast<std::uint64_t>(as_int))); break;
      case DType::f16:
      case DType::bf16:
        return make_error(
            ErrorCode::invalid_spec,
            "scalar parameter '" + param.name + "': 16-bit float scalars are not supported; pass float");
    }
  }
  for (auto& slot : pack_out.storage_) pack_out.pointers_.push_back(slot.data());
  return pack_out;
}

}  // namespace kopt::worker
