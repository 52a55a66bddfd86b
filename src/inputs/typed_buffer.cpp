#include "inputs/typed_buffer.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "kopt/float16.hpp"

namespace kopt {
namespace {

template <class T>
void store(std::byte* data, std::size_t index, T value) noexcept {
  std::memcpy(data + index * sizeof(T), &value, sizeof(T));
}

template <class T>
IntegerRange range_of() noexcept {
  if constexpr (static_cast<std::uint64_t>(std::numeric_limits<T>::max()) >
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return {0, std::numeric_limits<std::int64_t>::max()};
  } else {
    return {static_cast<std::int64_t>(std::numeric_limits<T>::min()),
            static_cast<std::int64_t>(std::numeric_limits<T>::max())};
  }
}

// Rounds to nearest and saturates into [range.min, range.max]; NaN becomes 0.
std::int64_t saturate(double value, IntegerRange range) noexcept {
  if (std::isnan(value)) return 0;
  double const rounded = std::nearbyint(value);
  // Compare in double; the bounds may round up (2^63), so test with >= on the upper side.
  if (rounded <= static_cast<double>(range.min)) return range.min;
  if (rounded >= static_cast<double>(range.max)) return range.max;
  return static_cast<std::int64_t>(rounded);
}

}  // namespace

IntegerRange integer_range(DType dtype) noexcept {
  switch (dtype) {
    case DType::i8: return range_of<std::int8_t>();
    case DType::u8: return range_of<std::uint8_t>();
    case DType::boolean: return IntegerRange{0, 1};
    case DType::i16: return range_of<std::int16_t>();
    case DType::i32: return range_of<std::int32_t>();
    case DType::u32: return range_of<std::uint32_t>();
    case DType::i64: return range_of<std::int64_t>();
    case DType::u64: return range_of<std::uint64_t>();
    default: return range_of<std::int64_t>();
  }
}

bool fits(DType dtype, std::int64_t low, std::int64_t high) noexcept {
  auto const range = integer_range(dtype);
  return low >= range.min && high <= range.max;
}

std::string describe_range(DType dtype) {
  auto const range = integer_range(dtype);
  return std::string(to_string(dtype)) + " (" + std::to_string(range.min) + " to " +
         std::to_string(range.max) + ")";
}

void TypedBuffer::set_double(std::size_t index, double value) const noexcept {
  switch (dtype_) {
    case DType::f32: store(data_, index, static_cast<float>(value)); return;
    case DType::f64: store(data_, index, value); return;
    case DType::f16: store(data_, index, f16_bits_from_double(value)); return;
    case DType::bf16: store(data_, index, bf16_bits_from_double(value)); return;
    default: set_integer(index, saturate(value, integer_range(dtype_))); return;
  }
}

void TypedBuffer::set_integer(std::size_t index, std::int64_t value) const noexcept {
  switch (dtype_) {
    case DType::f32: store(data_, index, static_cast<float>(value)); return;
    case DType::f64: store(data_, index, static_cast<double>(value)); return;
    case DType::f16: store(data_, index, f16_bits_from_double(static_cast<double>(value))); return;
    case DType::bf16: store(data_, index, bf16_bits_from_double(static_cast<double>(value))); return;
    case DType::i8: store(data_, index, static_cast<std::int8_t>(value)); return;
    case DType::u8: store(data_, index, static_cast<std::uint8_t>(value)); return;
    case DType::boolean: store(data_, index, static_cast<std::uint8_t>(value != 0 ? 1 : 0)); return;
    case DType::i16: store(data_, index, static_cast<std::int16_t>(value)); return;
    case DType::i32: store(data_, index, static_cast<std::int32_t>(value)); return;
    case DType::u32: store(data_, index, static_cast<std::uint32_t>(value)); return;
    case DType::i64: store(data_, index, value); return;
    case DType::u64: store(data_, index, static_cast<std::uint64_t>(value)); return;
  }
}

}  // namespace kopt
