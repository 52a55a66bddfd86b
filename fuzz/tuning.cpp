// Tuning annotations of a candidate source: `kopt:knob`, `kopt:flag`, `kopt:constraint` (TuningSpace::parse,
// include/kopt/tuning.hpp) with the space enumerated against one size case, and `kopt:launch`
// (candidate_launch, include/kopt/compile.hpp) with and without a task launch; detect_mode reads the
// entry's definition. Seeds: every .cu under suites/, examples/ and strategies/ with a kopt: line.
#include "kopt/tuning.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "kopt/compile.hpp"

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string const source(reinterpret_cast<char const*>(data), size);
  if (auto space = kopt::TuningSpace::parse(source, "fuzz.cu")) {
    kopt::TuningRules rules;
    rules.sizes = {{{"N", 4096}, {"C", 33}}};
    rules.output_rtol = 1e-5;
    rules.max_configurations = 20000;
    if (space->check_rules(rules)) {
      if (auto all = space->enumerate(rules); all && !all->valid.empty()) {
        auto const& first = all->valid.front();
        (void)space->config_key(first);
        (void)space->flags(first);
        (void)space->neighbours(first);
      }
    }
  }
  (void)kopt::candidate_launch(source, std::nullopt, "kernel");
  kopt::LaunchSpec task_launch;
  task_launch.grid = {kopt::Expr::constant(16)};
  task_launch.block = {kopt::Expr::constant(256)};
  (void)kopt::candidate_launch(source, task_launch, "kernel");
  (void)kopt::detect_mode(source, "kernel");
  return 0;
}
