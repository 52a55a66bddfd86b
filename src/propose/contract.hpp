// A strategy's contract: its `signature` with T spelled as FP32 or BF16 and I (an index type, where the
// signature has one) as int32 or int64, parsed like a task's entry. Private to src/propose.
#pragma once

#include <string>
#include <string_view>

#include "kopt/propose.hpp"

namespace kopt {

Result<Signature> strategy_contract(LibraryStrategy const& strategy, DType element, DType index = DType::i32);

// The signature with each T (a whole word) spelled as `type`.
std::string with_element_type(std::string signature, std::string const& type);

// Whether the signature names the index-type placeholder I (a whole word), and the signature with each I
// spelled as `type`.
bool has_index_type(std::string const& signature);
std::string with_index_type(std::string signature, std::string const& type);

// How {{I}} and I are spelled for an index type: "int" (i32) or "long long" (i64).
std::string_view index_type_spelling(DType index);

// Kernel mode: a `// kopt:launch` line, or the entry defined as a __global__ function; otherwise the
// template is a launcher (docs/compile.md).
bool is_kernel_template(std::string const& text);

// The `params` name of a define's value "{{name}}" (the task's expression for it stands in), or empty.
std::string_view define_param(std::string_view value);

}  // namespace kopt
