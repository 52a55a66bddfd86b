// Uses an installed kopt: loads the installed sgemm example task, evaluates its work model and an
// expression of its own, and asks the installed strategy library which strategies apply. Prints lines
// that tests/install/run_install_test.cmake checks. Exit 0, or 2 when something could not be loaded.
#include <filesystem>
#include <iostream>

#include "kopt/expr.hpp"
#include "kopt/propose.hpp"
#include "kopt/task.hpp"

int main() {
  auto task = kopt::load_task(std::filesystem::path(KOPT_EXAMPLES_DIR) / "sgemm");
  if (!task) {
    std::cerr << "kopt_consumer: " << task.error().message << '\n';
    return 2;
  }
  std::cout << "task " << task->name << ": " << task->buffers.size() << " buffers, " << task->sizes.size()
            << " sizes\n";

  kopt::SizeCase const& size = task->sizes.front();
  auto const env = task->env_for(size);
  if (!task->work.flops) {
    std::cerr << "kopt_consumer: " << task->spec_file.string() << ": [work] flops: expected an expression\n";
    return 2;
  }
  auto flops = task->work.flops->evaluate(env);
  auto tiles = kopt::Expr::parse("ceil_div(M, 16) * ceil_div(N, 16)");
  if (!flops || !tiles) {
    std::cerr << "kopt_consumer: an expression did not parse or evaluate\n";
    return 2;
  }
  auto tile_count = tiles->evaluate(env);
  if (!tile_count) {
    std::cerr << "kopt_consumer: " << tile_count.error().message << '\n';
    return 2;
  }
  std::cout << "flops(" << size.name << ") = " << *flops << '\n';
  std::cout << "tiles(" << size.name << ") = " << *tile_count << '\n';

  auto library = kopt::load_strategy_library(KOPT_STRATEGIES_DIR);
  if (!library) {
    std::cerr << "kopt_consumer: " << library.error().message << '\n';
    return 2;
  }
  auto const chosen = kopt::choose_strategies(*library, *task, 90);
  std::cout << "strategies: " << library->strategies.size() << " in the library, " << chosen.size()
            << " apply to " << task->name << " on sm_90\n";

  std::error_code ec;
  bool const worker_there = std::filesystem::exists(KOPT_WORKER, ec);
  std::cout << "worker: " << (worker_there ? "installed" : "missing") << '\n';
  return worker_there ? 0 : 2;
}
