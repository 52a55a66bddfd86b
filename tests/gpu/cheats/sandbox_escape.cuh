// Shared by the sandbox-escape launchers in tests/gpu/cheats (vector_add_*): the honest answer they
// compute, so that their escape attempt is the only thing wrong with them, and the real home
// directory they go after (the worker points $HOME at its scratch folder).
#pragma once

#include <cuda_runtime.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace escape {

__global__ void vector_add_kernel(float* c, const float* a, const float* b, int n) {
  int const stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

// c = a + b on the default stream, as an honest launcher would.
inline void add_honestly(float* c, const float* a, const float* b, int n) {
  if (n <= 0) return;
  int const needed = (n + 255) / 256;
  int const grid = needed < 1056 ? needed : 1056;
  vector_add_kernel<<<grid, 256>>>(c, a, b, n);
}

// The real home directory: /etc/passwd first (no name-service sockets, which would be a violation of
// another kind), getpwuid as a fallback.
inline std::string real_home() {
  uid_t const uid = getuid();
  if (FILE* passwd = std::fopen("/etc/passwd", "r")) {
    char line[1024];
    while (std::fgets(line, sizeof line, passwd) != nullptr) {
      std::vector<std::string> fields;
      std::string field;
      for (char const* p = line; *p != '\0' && *p != '\n'; ++p) {
        if (*p == ':') {
          fields.push_back(field);
          field.clear();
        } else {
          field += *p;
        }
      }
      fields.push_back(field);
      if (fields.size() >= 6 && std::strtoul(fields[2].c_str(), nullptr, 10) == uid) {
        std::fclose(passwd);
        return fields[5];
      }
    }
    std::fclose(passwd);
  }
  struct passwd const* entry = getpwuid(uid);
  return entry != nullptr && entry->pw_dir != nullptr ? std::string(entry->pw_dir) : std::string();
}

}  // namespace escape
