// The kopt-compile side of the compile pool: answers one request line with one reply line, compiling
// kernel-mode requests with the NVRTC backend into the shared cache. Never throws, never exits.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

namespace kopt::detail {

// One request line (compile_json.hpp) in, one reply line out (without the newline).
std::string serve_compile_line(std::string_view line);

// Reads request lines from `in` until end of input, writing each reply line to `out` (flushed).
// Returns the process exit code: 0.
int run_compile_server(std::istream& in, std::ostream& out);

}  // namespace kopt::detail
