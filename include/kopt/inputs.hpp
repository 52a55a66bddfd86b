// Host-side generation of a trial's input data from a task's generator specs.
// Deterministic: (task, size case, seed, trial) always yields the same bytes, on any machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kopt/dtype.hpp"
#include "kopt/result.hpp"
#include "kopt/splitmix.hpp"  // mix64: the root of all randomness in kopt
#include "kopt/task.hpp"

namespace kopt {

struct HostBuffer {
  std::string name;
  Role role = Role::input;
  DType dtype = DType::f32;
  std::size_t count = 0;         // elements
  std::vector<std::byte> bytes;  // count * size_of(dtype) for inputs/inouts; empty for outputs
};

struct TrialInputs {
  std::uint64_t seed = 0;
  int trial = 0;
  std::vector<HostBuffer> buffers;  // one per task buffer, in signature order
};

// Scalar counts of every buffer for a size case (signature order): its length times its lanes (a float2
// buffer of length n holds 2n floats). Fails on a negative length or an expression error, naming the
// buffer.
Result<std::vector<std::size_t>> buffer_lengths(TaskSpec const& task, SizeCase const& size);

// The seed of trial `trial` of the size case at `size_index` among those an evaluation selected, from the
// evaluation's seed: the worker generates that trial's inputs with it, and kopt does too for a reference
// that runs outside the worker (docs/pytorch.md).
std::uint64_t trial_seed(std::uint64_t seed, std::size_t size_index, int trial) noexcept;

// Fills every input and inout buffer. Trial k uses generator k % n of each buffer; structured
// generators fill all of their target buffers consistently. `threads` = 0 uses all cores.
Result<TrialInputs> generate_inputs(TaskSpec const& task, SizeCase const& size, std::uint64_t seed, int trial,
                                    unsigned threads = 0);

// Checks every generator of the task without a size case: kinds, parameter names and syntax (numbers,
// expressions over the task's integer scalars, keywords), structured targets (present, known, naming
// input or inout buffers filled by nothing else) and dtype requirements. Errors name the spec file and
// field, e.g. "<spec>: buffers.in.generator: unknown kind 'uniformm'; expected one of uniform, ...".
Status validate_generators(TaskSpec const& task);

// Names of the generator kinds this build knows (for --help and error messages).
std::vector<std::string> generator_kinds();

}  // namespace kopt
