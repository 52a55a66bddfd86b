// host_name: gethostname with a fallback.
#include "kopt/host_name.hpp"

#include <unistd.h>

namespace kopt {

std::string host_name() {
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) != 0 || host[0] == '\0') return "host";
  return host;
}

}  // namespace kopt
