// An output buffer with guard elements on both sides, for the host_warp checks: a kernel must leave the
// guards as they were (a write outside its output would corrupt a neighbour on the GPU).
#pragma once
#include <cstddef>
#include <cstring>
#include <vector>

template <class T>
class GuardedOutput {
 public:
  static constexpr std::size_t kGuard = 8;
  // n elements, each `fill`, between kGuard `guard` elements on each side.
  GuardedOutput(std::size_t n, T guard, T fill) : n_(n), guard_(guard), buffer_(n + 2 * kGuard, guard) {
    for (std::size_t i = 0; i < n; ++i) buffer_[kGuard + i] = fill;
  }
  T* data() { return buffer_.data() + kGuard; }
  T const& operator[](std::size_t i) const { return buffer_[kGuard + i]; }
  // Whether every guard element still holds its value (bit for bit).
  bool guards_intact() const {
    for (std::size_t i = 0; i < kGuard; ++i) {
      if (std::memcmp(&buffer_[i], &guard_, sizeof(T)) != 0 ||
          std::memcmp(&buffer_[kGuard + n_ + i], &guard_, sizeof(T)) != 0)
        return false;
    }
    return true;
  }

 private:
  std::size_t n_;
  T guard_;
  std::vector<T> buffer_;
};
