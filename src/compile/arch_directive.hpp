// `// kopt:arch sm_90a` in a candidate: build it for the architecture-specific variant of the target
// (wgmma, setmaxnreg and other sm_90a-only instructions). docs/compile.md, "Architecture-specific code".
#pragma once

#include <string>

#include "kopt/result.hpp"

namespace kopt::detail {

// The architecture to build `source` for when the target is `target_arch`: the directive's value when the
// source has one (the first `// kopt:arch` line), else `target_arch`. Only the target itself or its
// "a" variant is allowed (sm_90 -> sm_90a): a cubin for another GPU would not load. Error invalid_spec
// naming the line and what was expected otherwise.
Result<std::string> requested_arch(std::string const& source, std::string const& target_arch);

}  // namespace kopt::detail
