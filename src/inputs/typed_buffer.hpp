// Writes generated values into a buffer of any dtype with correct rounding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "kopt/dtype.hpp"

namespace kopt {

struct IntegerRange {
  std::int64_t min;
  std::int64_t max;  // u64 buffers are limited to int64's range (generated integers are int64)
};

// The values an integer dtype holds (within int64); for floating dtypes the whole int64 range.
IntegerRange integer_range(DType dtype) noexcept;
bool fits(DType dtype, std::int64_t low, std::int64_t high) noexcept;
std::string describe_range(DType dtype);  // "u8 (0 to 255)"

class TypedBuffer {
 public:
  TypedBuffer(DType dtype, std::byte* data, std::size_t count) : dtype_(dtype), data_(data), count_(count) {}

  DType dtype() const noexcept { return dtype_; }
  std::size_t count() const noexcept { return count_; }

  // Floating dtypes round to nearest even; integer dtypes round to nearest and saturate (NaN -> 0).
  void set_double(std::size_t index, double value) const noexcept;
  // Integer dtypes store the value as is (the caller checked `fits`); floating dtypes round.
  void set_integer(std::size_t index, std::int64_t value) const noexcept;

 private:
  DType dtype_;
  std::byte* data_;
  std::size_t count_;
};

}  // namespace kopt
