// Static resource usage from a `ptxas -v` log (NVRTC --ptxas-options=-v or nvcc -Xptxas -v).
#pragma once

#include <map>
#include <string>

#include "kopt/compile.hpp"

namespace kopt::detail {

// Per entry function (lowered name). When `arch` is not empty, only entries compiled for that
// architecture ("for 'sm_90'") are reported; a log without arch tags is accepted as is.
std::map<std::string, ResourceUsage> parse_ptxas_resources(std::string const& log, std::string const& arch);

// The largest of each field over all entries (a launcher may contain several kernels).
ResourceUsage max_resources(std::map<std::string, ResourceUsage> const& per_entry);

}  // namespace kopt::detail
