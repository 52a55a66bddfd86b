// Generators that fill one buffer: uniform, normal, int_uniform, constant, arange, sorted_offsets,
// permutation, probability_rows.
#pragma once

#include <string>

#include "inputs/counter_random.hpp"
#include "inputs/generator_params.hpp"
#include "inputs/typed_buffer.hpp"
#include "kopt/result.hpp"

namespace kopt {

// Fills `out` (buffer `buffer_name`) with the generator described by `params.spec()`.
Status fill_buffer(ParamReader const& params, RandomStream const& stream, TypedBuffer const& out,
                   std::string const& buffer_name, unsigned threads);

// Uniform integers in [low, high] (inclusive), element i from counter i.
void fill_integer_range(RandomStream const& stream, TypedBuffer const& out, std::int64_t low,
                        std::int64_t high, unsigned threads);

}  // namespace kopt
