#include <cstdint>
#include <cstring>
#include <limits>

#include "kopt/float16.hpp"
#include "kopt/verify.hpp"

namespace kopt {
namespace {

template <class T>
T load(std::byte const* data, std::size_t index) noexcept {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

}  // namespace

double element_as_double(DType dtype, std::byte const* data, std::size_t index) noexcept {
  switch (dtype) {
    case DType::f32: return static_cast<double>(load<float>(data, index));
    case DType::f64: return load<double>(data, index);
    case DType::f16: return static_cast<double>(f16_bits_to_float(load<std::uint16_t>(data, index)));
    case DType::bf16: return static_cast<double>(bf16_bits_to_float(load<std::uint16_t>(data, index)));
    case DType::i8: return static_cast<double>(load<std::int8_t>(data, index));
    case DType::u8:
    case DType::boolean: return static_cast<double>(load<std::uint8_t>(data, index));
    case DType::i16: return static_cast<double>(load<std::int16_t>(data, index));
    case DType::i32: return static_cast<double>(load<std::int32_t>(data, index));
    case DType::u32: return static_cast<double>(load<std::uint32_t>(data, index));
    case DType::i64: return static_cast<double>(load<std::int64_t>(data, index));
    case DType::u64: return static_cast<double>(load<std::uint64_t>(data, index));
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace kopt
