#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstring>

#include "kopt/worker/masked_results.hpp"
#include "worker/gpu/device_checks.hpp"

namespace kopt::worker {
namespace {

constexpr int kThreads = 256;

int blocks_for(std::size_t items) {
  std::size_t const wanted = (items + kThreads - 1) / kThreads;
  return static_cast<int>(wanted < 4096 ? (wanted == 0 ? 1 : wanted) : 4096);
}

__device__ unsigned long long warp_sum(unsigned long long v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ unsigned long long warp_max(unsigned long long v) {
  for (int offset = 16; offset > 0; offset /= 2) {
    unsigned long long other = __shfl_down_sync(0xffffffffu, v, offset);
    v = other > v ? other : v;
  }
  return v;
}

__device__ void add_count(unsigned long long* counter, unsigned long long local) {
  local = warp_sum(local);
  if ((threadIdx.x & 31) == 0 && local != 0) atomicAdd(counter, local);
}

__global__ void count_bytes_not_equal(unsigned char const* data, std::size_t bytes, unsigned char value,
                                      unsigned long long* counter) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < bytes;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    local += data[i] != value ? 1u : 0u;
  }
  add_count(counter, local);
}

__global__ void count_words_differing(uint4 const* a, uint4 const* b, std::size_t words,
                                      unsigned char const* a_tail, unsigned char const* b_tail,
                                      std::size_t tail, unsigned long long* counter) {
  unsigned long long local = 0;
  std::size_t const stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t const first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  for (std::size_t i = first; i < words; i += stride) {
    uint4 const x = a[i];
    uint4 const y = b[i];
    local += (x.x != y.x || x.y != y.y || x.z != y.z || x.w != y.w) ? 1u : 0u;
  }
  if (first == 0) {
    for (std::size_t i = 0; i < tail; ++i) local += a_tail[i] != b_tail[i] ? 1u : 0u;
  }
  add_count(counter, local);
}

template <class T>
__device__ double decode(T const* p, std::size_t i) {
  if constexpr (std::is_same_v<T, __half>) {
    return static_cast<double>(__half2float(p[i]));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return static_cast<double>(__bfloat162float(p[i]));
  } else {
    return static_cast<double>(p[i]);
  }
}

template <class T>
__device__ bool all_bytes(T const* p, std::size_t i, unsigned char value) {
  unsigned char const* bytes = reinterpret_cast<unsigned char const*>(p + i);
  for (std::size_t k = 0; k < sizeof(T); ++k) {
    if (bytes[k] != value) return false;
  }
  return true;
}

template <class T>
__device__ bool same_bytes(T const* a, T const* b) {
  unsigned char const* x = reinterpret_cast<unsigned char const*>(a);
  unsigned char const* y = reinterpret_cast<unsigned char const*>(b);
  for (std::size_t k = 0; k < sizeof(T); ++k) {
    if (x[k] != y[k]) return false;
  }
  return true;
}

// Element i of a masked reference buffer, in clear (masked_results.hpp).
template <class T>
__device__ T unmasked(T const* masked, std::size_t i, std::uint64_t key) {
  unsigned char bytes[sizeof(T)];
  unsigned char const* source = reinterpret_cast<unsigned char const*>(masked + i);
  std::uint64_t const mask = element_mask(key, i, sizeof(T));
  for (std::size_t k = 0; k < sizeof(T); ++k)
    bytes[k] = source[k] ^ static_cast<unsigned char>(mask >> (8 * k));
  T value;
  memcpy(&value, bytes, sizeof(T));
  return value;
}

// Mirrors compare_outputs (src/verify/compare_detail.hpp): same operations in double, no contraction.
// The reference is masked under `key` and unmasked one element at a time.
template <class T>
__global__ void compare(T const* masked_ref, std::uint64_t key, T const* got, std::size_t count,
                        double absolute_allowance, double rtol, bool exact, int poison,
                        DeviceCounts* counts) {
  unsigned long long mismatches = 0;
  unsigned long long unwritten = 0;
  unsigned long long max_abs = 0;
  unsigned long long max_rel = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    T const reference = unmasked(masked_ref, i, key);
    if (poison >= 0 && all_bytes(got, i, static_cast<unsigned char>(poison)) &&
        !all_bytes(&reference, 0, static_cast<unsigned char>(poison))) {
      ++unwritten;
      continue;
    }
    double const r = decode(&reference, 0);
    double const g = decode(got, i);
    bool ok = true;
    if (!isfinite(r) || !isfinite(g)) {
      ok = (isnan(r) && isnan(g)) || r == g;
    } else {
      double const error = fabs(__dsub_rn(g, r));
      if (exact) {
        ok = same_bytes(&reference, got + i);
      } else {
        ok = error <= __dadd_rn(absolute_allowance, __dmul_rn(rtol, fabs(r)));
      }
      double const denominator = fabs(r) > 1e-30 ? fabs(r) : 1e-30;
      double const rel = __ddiv_rn(error, denominator);
      unsigned long long const abs_bits = static_cast<unsigned long long>(__double_as_longlong(error));
      unsigned long long const rel_bits = static_cast<unsigned long long>(__double_as_longlong(rel));
      max_abs = abs_bits > max_abs ? abs_bits : max_abs;
      max_rel = rel_bits > max_rel ? rel_bits : max_rel;
    }
    mismatches += ok ? 0u : 1u;
  }
  add_count(&counts->mismatches, mismatches);
  add_count(&counts->unwritten, unwritten);
  max_abs = warp_max(max_abs);
  max_rel = warp_max(max_rel);
  if ((threadIdx.x & 31) == 0) {
    if (max_abs != 0) atomicMax(&counts->max_abs_bits, max_abs);
    if (max_rel != 0) atomicMax(&counts->max_rel_bits, max_rel);
  }
}

__global__ void count_differs_from_first(unsigned char const* data, std::size_t count,
                                         std::size_t element_size, unsigned long long* counter) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    bool same = true;
    for (std::size_t k = 0; k < element_size; ++k) same = same && data[i * element_size + k] == data[k];
    local += same ? 0u : 1u;
  }
  add_count(counter, local);
}

template <class T>
void launch_compare_typed(void const* reference, std::uint64_t key, void const* candidate, std::size_t count,
                          double absolute_allowance, double rtol, bool exact, int poison,
                          DeviceCounts* counts) {
  compare<T><<<blocks_for(count), kThreads, 0, cudaStreamPerThread>>>(
      static_cast<T const*>(reference), key, static_cast<T const*>(candidate), count, absolute_allowance,
      rtol, exact, poison, counts);
}

}  // namespace

void launch_count_bytes_not_equal(void const* data, std::size_t bytes, unsigned char value,
                                  unsigned long long* counter) {
  if (bytes == 0) return;
  count_bytes_not_equal<<<blocks_for(bytes), kThreads, 0, cudaStreamPerThread>>>(
      static_cast<unsigned char const*>(data), bytes, value, counter);
}

void launch_count_words_differing(void const* a, void const* b, std::size_t bytes,
                                  unsigned long long* counter) {
  if (bytes == 0) return;
  std::size_t const words = bytes / 16;
  std::size_t const tail = bytes % 16;
  auto const* ab = static_cast<unsigned char const*>(a);
  auto const* bb = static_cast<unsigned char const*>(b);
  count_words_differing<<<blocks_for(words + 1), kThreads, 0, cudaStreamPerThread>>>(
      reinterpret_cast<uint4 const*>(a), reinterpret_cast<uint4 const*>(b), words, ab + words * 16,
      bb + words * 16, tail, counter);
}

void launch_compare(DType dtype, void const* reference, std::uint64_t key, void const* candidate,
                    std::size_t count, double absolute_allowance, double rtol, bool exact, int poison,
                    DeviceCounts* counts) {
  if (count == 0) return;
  switch (dtype) {
    case DType::f32:
      launch_compare_typed<float>(reference, key, candidate, count, absolute_allowance, rtol, exact, poison,
                                  counts);
      break;
    case DType::f64:
      launch_compare_typed<double>(reference, key, candidate, count, absolute_allowance, rtol, exact, poison,
                                   counts);
      break;
    case DType::f16:
      launch_compare_typed<__half>(reference, key, candidate, count, absolute_allowance, rtol, exact, poison,
                                   counts);
      break;
    case DType::bf16:
      launch_compare_typed<__nv_bfloat16>(reference, key, candidate, count, absolute_allowance, rtol, exact,
                                          poison, counts);
      break;
    case DType::i8:
      launch_compare_typed<signed char>(reference, key, candidate, count, absolute_allowance, rtol, exact,
                                        poison, counts);
      break;
    case DType::u8:
    case DType::boolean:
      launch_compare_typed<unsigned char>(reference, key, candidate, count, absolute_allowance, rtol, exact,
                                          poison, counts);
      break;
    case DType::i16:
      launch_compare_typed<short>(reference, key, candidate, count, absolute_allowance, rtol, exact, poison,
                                  counts);
      break;
    case DType::i32:
      launch_compare_typed<int>(reference, key, candidate, count, absolute_allowance, rtol, exact, poison,
                                counts);
      break;
    case DType::u32:
      launch_compare_typed<unsigned int>(reference, key, candidate, count, absolute_allowance, rtol, exact,
                                         poison, counts);
      break;
    case DType::i64:
      launch_compare_typed<long long>(reference, key, candidate, count, absolute_allowance, rtol, exact,
                                      poison, counts);
      break;
    case DType::u64:
      launch_compare_typed<unsigned long long>(reference, key, candidate, count, absolute_allowance, rtol,
                                               exact, poison, counts);
      break;
  }
}

void launch_count_differs_from_first(void const* data, std::size_t count, std::size_t element_size,
                                     unsigned long long* counter) {
  if (count < 2) return;
  count_differs_from_first<<<blocks_for(count), kThreads, 0, cudaStreamPerThread>>>(
      static_cast<unsigned char const*>(data), count, element_size, counter);
}

double bits_to_double(unsigned long long bits) {
  double d = 0.0;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace kopt::worker
