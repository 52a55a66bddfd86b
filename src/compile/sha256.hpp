// SHA-256 (FIPS 180-4), used for content-addressed cache keys of compiled candidates.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace kopt::detail {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  // Finishes the hash; the object must not be updated afterwards.
  std::array<std::uint8_t, 32> digest();
  // Lower-case hex of the digest.
  std::string hex_digest();

 private:
  void process_block(std::uint8_t const* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

}  // namespace kopt::detail
