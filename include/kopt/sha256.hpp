// SHA-256 content hashes (through OpenSSL's libcrypto): cache keys of compiled candidates and the
// store's candidate keys.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace kopt {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(Sha256 const&) = delete;
  Sha256& operator=(Sha256 const&) = delete;

  void update(std::string_view bytes);
  // Finishes the hash; the object must not be updated afterwards.
  std::array<std::uint8_t, 32> digest();
  // Lower-case hex of the digest.
  std::string hex_digest();

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

std::string sha256_hex(std::string_view bytes);

}  // namespace kopt
