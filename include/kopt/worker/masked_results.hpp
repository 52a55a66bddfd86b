// The reference's results as the worker keeps them (kopt masks a PyTorch reference's results the same
// way before the worker reads them, docs/pytorch.md): XOR-masked with the keystream of a fresh random
// 64-bit key, so no memory a candidate can reach (device or host) holds the answer to its current
// inputs in clear while it runs. The device comparison unmasks one element at a time, with the key
// passed as a launch argument after the candidate has finished; the host comparison opens a clear
// copy that is wiped as soon as the comparison is done. docs/verification.md, "Answers out of reach".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kopt/dtype.hpp"

#if defined(__CUDACC__)
#define KOPT_HOST_DEVICE __host__ __device__
#else
#define KOPT_HOST_DEVICE
#endif

namespace kopt::worker {

// Word `word` of the keystream of `key` (splitmix64 of key + (word + 1) * golden ratio): byte b of a
// masked buffer is XORed with byte (b % 8), little-endian, of word b / 8. An element of 1, 2, 4 or 8
// bytes at an offset that is a multiple of its size lies inside one word.
KOPT_HOST_DEVICE inline std::uint64_t mask_word(std::uint64_t key, std::uint64_t word) {
  std::uint64_t z = key + (word + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The mask of element `index` of `element_size` bytes, in its low bytes.
KOPT_HOST_DEVICE inline std::uint64_t element_mask(std::uint64_t key, std::size_t index,
                                                   std::size_t element_size) {
  std::size_t const offset = index * element_size;
  return mask_word(key, offset / 8) >> (8 * (offset % 8));
}

// XORs `bytes` bytes with the keystream of `key` (applying it twice restores the data).
void apply_mask(std::byte* data, std::size_t bytes, std::uint64_t key) noexcept;

// A random non-zero key from the kernel's random source (getrandom).
std::uint64_t fresh_mask_key();

// Overwrites memory in a way the compiler may not elide.
void wipe(void* data, std::size_t bytes) noexcept;

// A clear copy of one result buffer, wiped when it goes away.
class ClearBytes {
 public:
  explicit ClearBytes(std::vector<std::byte> bytes) : bytes_(std::move(bytes)) {}
  ~ClearBytes() { wipe(bytes_.data(), bytes_.size()); }
  ClearBytes(ClearBytes&& other) noexcept = default;
  ClearBytes& operator=(ClearBytes&&) = delete;
  ClearBytes(ClearBytes const&) = delete;
  ClearBytes& operator=(ClearBytes const&) = delete;
  std::vector<std::byte> const& bytes() const noexcept { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

// Facts about one result buffer that the device comparison needs, derived before masking.
struct ResultFacts {
  double scale = 0.0;   // max |ref| over finite values
  bool varies = false;  // the reference has two distinct values (NaN equals NaN, -0 equals +0)
};

// Derives a result buffer's facts from its clear bytes.
ResultFacts describe_result(DType dtype, std::vector<std::byte> const& bytes);

// The results of one reference run (output and inout buffers, in signature order), masked.
class MaskedResults {
 public:
  MaskedResults() = default;
  // Masks `clear` in place under a fresh key; `facts[i]` describes buffer i (describe_result).
  static MaskedResults seal(std::vector<std::vector<std::byte>> clear, std::vector<ResultFacts> facts);
  // Results masked elsewhere under `key` (kopt, for a reference that runs outside the worker).
  static MaskedResults from_masked(std::uint64_t key, std::vector<std::vector<std::byte>> masked,
                                   std::vector<ResultFacts> facts);

  std::size_t size() const noexcept { return masked_.size(); }
  std::uint64_t key() const noexcept { return key_; }
  std::vector<std::byte> const& masked(std::size_t i) const { return masked_.at(i); }
  ResultFacts const& facts(std::size_t i) const { return facts_.at(i); }
  std::size_t bytes() const noexcept;
  // A clear copy of buffer i, for a comparison on the host after the candidate has finished.
  ClearBytes open(std::size_t i) const;

 private:
  std::uint64_t key_ = 0;
  std::vector<std::vector<std::byte>> masked_;
  std::vector<ResultFacts> facts_;
};

}  // namespace kopt::worker
