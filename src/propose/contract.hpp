// A strategy's contract: its `signature` with T spelled as FP32 or BF16, parsed like a task's entry.
// Private to src/propose.
#pragma once

#include "kopt/propose.hpp"

namespace kopt {

Result<Signature> strategy_contract(LibraryStrategy const& strategy, DType element);

}  // namespace kopt
