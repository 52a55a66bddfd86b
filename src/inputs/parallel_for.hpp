// Splits [0, count) into contiguous chunks run on std::threads.
#pragma once

#include <cstddef>
#include <functional>

namespace kopt {

// Calls body(begin, end) over disjoint chunks covering [0, count). `threads` = 0 uses every core;
// small ranges (below `min_chunk` per thread) run on the calling thread. The result must not depend
// on how the range is split.
void parallel_for(std::size_t count, unsigned threads,
                  std::function<void(std::size_t, std::size_t)> const& body, std::size_t min_chunk = 16384);

}  // namespace kopt
