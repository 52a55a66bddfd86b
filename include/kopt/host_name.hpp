// The name of this machine, as farm workers and evaluation records name it.
#pragma once

#include <string>

namespace kopt {

// gethostname(), or "host" when the machine has no name.
std::string host_name();

}  // namespace kopt
