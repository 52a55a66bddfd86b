// ptxas's resource figures as the analysis tools' StaticFacts (private to src/eval): shared by the
// findings every evaluation gets and the compile-only checks.
#pragma once

#include "kopt/analysis.hpp"
#include "kopt/compile.hpp"

namespace kopt {

inline StaticFacts static_facts_of(ResourceUsage const& resources) {
  StaticFacts facts;  // ptxas reports -1 for what it did not say
  if (resources.registers >= 0) facts.registers_per_thread = resources.registers;
  if (resources.spill_stores_bytes >= 0) facts.spill_store_bytes = resources.spill_stores_bytes;
  if (resources.spill_loads_bytes >= 0) facts.spill_load_bytes = resources.spill_loads_bytes;
  if (resources.static_shared_bytes >= 0) facts.static_shared_bytes = resources.static_shared_bytes;
  if (resources.stack_bytes >= 0) facts.stack_bytes = resources.stack_bytes;
  return facts;
}

}  // namespace kopt
