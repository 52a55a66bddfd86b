#include "kopt/worker/masked_results.hpp"

#include <sys/random.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "kopt/text.hpp"
#include "kopt/verify.hpp"

namespace kopt::worker {

void apply_mask(std::byte* data, std::size_t bytes, std::uint64_t key) noexcept {
  std::size_t const words = bytes / 8;
  for (std::size_t w = 0; w < words; ++w) {
    std::uint64_t value = 0;
    std::memcpy(&value, data + w * 8, 8);
    value ^= mask_word(key, w);
    std::memcpy(data + w * 8, &value, 8);
  }
  if (std::size_t const tail = bytes % 8; tail != 0) {
    std::uint64_t const last = mask_word(key, words);
    for (std::size_t b = 0; b < tail; ++b) {
      data[words * 8 + b] ^= static_cast<std::byte>((last >> (8 * b)) & 0xffU);
    }
  }
}

std::uint64_t fresh_mask_key() {
  std::uint64_t key = 0;
  while (key == 0) {
    ssize_t const got = ::getrandom(&key, sizeof key, 0);
    if (got != static_cast<ssize_t>(sizeof key) && errno != EINTR) {
      // getrandom exists on every kernel kopt supports (3.17+); its failure is a broken system.
      throw std::runtime_error("getrandom failed: " + std::string(errno_text(errno)));
    }
  }
  return key;
}

void wipe(void* data, std::size_t bytes) noexcept {
  if (data != nullptr && bytes > 0) ::explicit_bzero(data, bytes);
}

ResultFacts describe_result(DType dtype, std::vector<std::byte> const& bytes) {
  ResultFacts facts;
  std::size_t const n = bytes.size() / size_of(dtype);
  if (n == 0) return facts;
  double const first = element_as_double(dtype, bytes.data(), 0);
  for (std::size_t i = 0; i < n; ++i) {
    double const v = element_as_double(dtype, bytes.data(), i);
    if (std::isfinite(v)) facts.scale = std::max(facts.scale, std::fabs(v));
    if (!facts.varies && !((std::isnan(v) && std::isnan(first)) || v == first)) facts.varies = true;
  }
  return facts;
}

MaskedResults MaskedResults::seal(std::vector<std::vector<std::byte>> clear, std::vector<ResultFacts> facts) {
  MaskedResults out;
  out.key_ = fresh_mask_key();
  for (auto& buffer : clear) apply_mask(buffer.data(), buffer.size(), out.key_);
  out.masked_ = std::move(clear);
  out.facts_ = std::move(facts);
  out.facts_.resize(out.masked_.size());
  return out;
}

MaskedResults MaskedResults::from_masked(std::uint64_t key, std::vector<std::vector<std::byte>> masked,
                                         std::vector<ResultFacts> facts) {
  MaskedResults out;
  out.key_ = key;
  out.masked_ = std::move(masked);
  out.facts_ = std::move(facts);
  out.facts_.resize(out.masked_.size());
  return out;
}

std::size_t MaskedResults::bytes() const noexcept {
  std::size_t total = 0;
  for (auto const& b : masked_) total += b.size();
  return total;
}

ClearBytes MaskedResults::open(std::size_t i) const {
  std::vector<std::byte> copy = masked_.at(i);
  apply_mask(copy.data(), copy.size(), key_);
  return ClearBytes(std::move(copy));
}

}  // namespace kopt::worker
