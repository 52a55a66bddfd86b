// The search of an "answer thief" (tests/gpu/cheats/*_thief.cu): launcher host code that never
// computes, but looks through every device allocation it can find and through the process's own
// memory for a copy of the answer to its current inputs, recognised by its first four elements, and
// copies it into its output. kopt must keep every copy of the reference's results out of reach (masked,
// or poisoned) while a candidate runs (docs/verification.md, "Answers out of reach").
#pragma once

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace thief {

using GetAddressRange = int (*)(unsigned long long* base, std::size_t* size, unsigned long long ptr);

inline GetAddressRange address_range_function() {
  static GetAddressRange const fn = [] {
    void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (cuda == nullptr) cuda = dlopen("libcuda.so.1", RTLD_NOW);
    return cuda == nullptr ? nullptr
                           : reinterpret_cast<GetAddressRange>(dlsym(cuda, "cuMemGetAddressRange_v2"));
  }();
  return fn;
}

// Every device allocation within +-128 GiB of `anchor`, walked with the driver's cuMemGetAddressRange.
inline std::vector<std::pair<unsigned long long, std::size_t>> device_allocations(unsigned long long anchor) {
  std::vector<std::pair<unsigned long long, std::size_t>> found;
  GetAddressRange const range = address_range_function();
  if (range == nullptr) return found;
  unsigned long long const span = 128ULL << 30;
  unsigned long long const step = 2ULL << 20;
  unsigned long long address = anchor > span ? (anchor - span) & ~(step - 1) : 0;
  unsigned long long const end = anchor + span;
  while (address < end) {
    unsigned long long base = 0;
    std::size_t size = 0;
    if (range(&base, &size, address) == 0 && size > 0) {
      found.emplace_back(base, size);
      address = std::max(address + step, (base + size + step - 1) & ~(step - 1));
    } else {
      address += step;
    }
  }
  return found;
}

// Looks for `pattern` at the start of every device allocation except `own`; returns its address or 0.
inline unsigned long long find_on_device(void const* pattern, std::size_t pattern_bytes,
                                         std::size_t need_bytes, unsigned long long anchor,
                                         std::vector<void const*> const& own) {
  std::vector<unsigned char> head(pattern_bytes);
  for (auto const& [base, size] : device_allocations(anchor)) {
    if (size < need_bytes) continue;
    bool mine = false;
    for (void const* p : own) mine = mine || reinterpret_cast<unsigned long long>(p) == base;
    if (mine) continue;
    if (cudaMemcpy(head.data(), reinterpret_cast<void const*>(base), pattern_bytes, cudaMemcpyDeviceToHost) !=
        cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    if (std::memcmp(head.data(), pattern, pattern_bytes) == 0) return base;
  }
  return 0;
}

// Looks for `pattern` anywhere in the process's writable memory (read through /proc/self/mem, so an
// unreadable mapping is an error, not a crash), with at least `need_bytes` of the mapping from there on.
inline void const* find_in_host_memory(void const* pattern, std::size_t pattern_bytes,
                                       std::size_t need_bytes) {
  FILE* maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr) return nullptr;
  int const mem = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);
  void const* result = nullptr;
  std::size_t const chunk = std::size_t{4} << 20;
  std::vector<unsigned char> buffer(chunk + pattern_bytes);
  char line[512];
  while (result == nullptr && mem >= 0 && std::fgets(line, sizeof line, maps) != nullptr) {
    unsigned long long lo = 0, hi = 0;
    char perms[5] = {};
    if (std::sscanf(line, "%llx-%llx %4s", &lo, &hi, perms) != 3 || perms[0] != 'r' || perms[1] != 'w')
      continue;
    std::string const text(line);
    if (text.find("[vvar") != std::string::npos || text.find("[vsyscall") != std::string::npos) continue;
    for (unsigned long long at = lo; at < hi && result == nullptr; at += chunk) {
      std::size_t const want =
          static_cast<std::size_t>(std::min<unsigned long long>(chunk + pattern_bytes, hi - at));
      ssize_t const got = pread(mem, buffer.data(), want, static_cast<off_t>(at));
      if (got < static_cast<ssize_t>(pattern_bytes)) break;
      auto const* hit = static_cast<unsigned char const*>(
          memmem(buffer.data(), static_cast<std::size_t>(got), pattern, pattern_bytes));
      while (hit != nullptr) {
        unsigned long long const address = at + static_cast<unsigned long long>(hit - buffer.data());
        auto const scratch = reinterpret_cast<unsigned long long>(buffer.data());
        bool const own = address == reinterpret_cast<unsigned long long>(pattern) ||
                         (address >= scratch && address < scratch + buffer.size());
        if (!own && address + need_bytes <= hi) {
          result = reinterpret_cast<void const*>(address);
          break;
        }
        std::size_t const next = static_cast<std::size_t>(hit - buffer.data()) + 1;
        hit = static_cast<unsigned char const*>(
            memmem(buffer.data() + next, static_cast<std::size_t>(got) - next, pattern, pattern_bytes));
      }
    }
  }
  if (mem >= 0) close(mem);
  std::fclose(maps);
  return result;
}

// c = a + b stolen: true when a copy of the answer was found and copied into c.
inline bool steal_vector_add(float* c, float const* a, float const* b, int n) {
  if (n < 4) return false;
  float x[4], y[4], answer[4];
  if (cudaMemcpy(x, a, sizeof x, cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaMemcpy(y, b, sizeof y, cudaMemcpyDeviceToHost) != cudaSuccess) {
    return false;
  }
  for (int i = 0; i < 4; ++i) answer[i] = x[i] + y[i];
  std::size_t const bytes = static_cast<std::size_t>(n) * sizeof(float);
  unsigned long long const anchor = reinterpret_cast<unsigned long long>(c);
  if (unsigned long long const on_device = find_on_device(answer, sizeof answer, bytes, anchor, {c, a, b})) {
    return cudaMemcpy(c, reinterpret_cast<void const*>(on_device), bytes, cudaMemcpyDeviceToDevice) ==
           cudaSuccess;
  }
  if (void const* on_host = find_in_host_memory(answer, sizeof answer, bytes)) {
    return cudaMemcpy(c, on_host, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
  }
  return false;
}

}  // namespace thief
