#include "kopt/sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace kopt {

struct Sha256::Context {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : context_(std::make_unique<Context>()) {
  context_->ctx = EVP_MD_CTX_new();
  // Failing here means libcrypto itself is broken: a programmer/installation error, not bad input.
  if (context_->ctx == nullptr || EVP_DigestInit_ex(context_->ctx, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("OpenSSL SHA-256 initialisation failed");
  }
}

Sha256::~Sha256() {
  EVP_MD_CTX_free(context_->ctx);
}

void Sha256::update(std::string_view bytes) {
  EVP_DigestUpdate(context_->ctx, bytes.data(), bytes.size());
}

std::array<std::uint8_t, 32> Sha256::digest() {
  std::array<std::uint8_t, 32> out{};
  unsigned int length = 0;
  EVP_DigestFinal_ex(context_->ctx, out.data(), &length);
  return out;
}

std::string Sha256::hex_digest() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (std::uint8_t byte : digest()) {
    text += kHex[byte >> 4];
    text += kHex[byte & 0xf];
  }
  return text;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hash;
  hash.update(bytes);
  return hash.hex_digest();
}

}  // namespace kopt
