#include "inputs/parallel_for.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace kopt {

void parallel_for(std::size_t count, unsigned threads,
                  std::function<void(std::size_t, std::size_t)> const& body, std::size_t min_chunk) {
  if (count == 0) return;
  std::size_t workers = threads != 0 ? threads : std::max(1U, std::thread::hardware_concurrency());
  workers = std::min(workers, std::max<std::size_t>(1, count / std::max<std::size_t>(1, min_chunk)));
  if (workers <= 1) {
    body(0, count);
    return;
  }
  std::size_t const chunk = (count + workers - 1) / workers;
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (std::size_t w = 1; w < workers; ++w) {
    std::size_t const begin = std::min(count, w * chunk);
    std::size_t const end = std::min(count, begin + chunk);
    if (begin < end) pool.emplace_back([&body, begin, end] { body(begin, end); });
  }
  body(0, std::min(count, chunk));
  for (auto& thread : pool) thread.join();
}

}  // namespace kopt
