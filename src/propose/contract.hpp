// A strategy's contract: its `signature` with T spelled as FP32 or BF16, parsed like a task's entry.
// Private to src/propose.
#pragma once

#include "kopt/propose.hpp"

namespace kopt {

Result<Signature> strategy_contract(LibraryStrategy const& strategy, DType element);

// The signature with each T (a whole word) spelled as `type`.
std::string with_element_type(std::string signature, std::string const& type);

// Kernel mode: a `// kopt:launch` line, or the entry defined as a __global__ function; otherwise the
// template is a launcher (docs/compile.md).
bool is_kernel_template(std::string const& text);

}  // namespace kopt
