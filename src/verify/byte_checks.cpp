#include <algorithm>

#include "kopt/verify.hpp"

namespace kopt {

std::optional<std::size_t> find_guard_damage(std::span<std::byte const> guard) noexcept {
  auto const it = std::find_if(guard.begin(), guard.end(), [](std::byte b) { return b != kGuardByte; });
  if (it == guard.end()) return std::nullopt;
  return static_cast<std::size_t>(it - guard.begin());
}

std::optional<std::size_t> first_difference(std::span<std::byte const> a,
                                            std::span<std::byte const> b) noexcept {
  std::size_t const common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (a[i] != b[i]) return i;
  }
  if (a.size() != b.size()) return common;  // one is longer: they differ where the shorter ends
  return std::nullopt;
}

}  // namespace kopt
