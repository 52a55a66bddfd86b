// Generators that fill several buffers consistently: sparse matrices in CSR, COO, CSC and ELL form.
#pragma once

#include <map>
#include <string>

#include "inputs/counter_random.hpp"
#include "inputs/generator_params.hpp"
#include "inputs/typed_buffer.hpp"
#include "kopt/result.hpp"

namespace kopt {

struct StructuredTarget {
  std::string buffer;  // the task buffer's name
  TypedBuffer data;
};

// Fills every target (role -> buffer) of the structured generator `params.spec()`; fails naming both
// the role's buffer and the generator when a buffer's length is not what the generator produces.
Status fill_structured(ParamReader const& params, RandomStream const& stream,
                       std::map<std::string, StructuredTarget> const& targets, unsigned threads);

}  // namespace kopt
