// Verification on the device: the same checks as the host path (src/verify), computed where the
// data already is, so a passing trial costs no transfers. Used as a fast path only: when any count
// is non-zero the worker re-runs the trial through the host path, which produces the exact verdict
// and message. So the device code may only ever be stricter than the host rules, never looser
// (docs/verification.md, "Device fast path").
#pragma once

#include <cstddef>
#include <cstdint>

#include "kopt/dtype.hpp"

namespace kopt::worker {

struct DeviceCounts {
  unsigned long long guard_bad = 0;           // guard bytes not equal to kGuardByte
  unsigned long long input_changed = 0;       // 16-byte words differing from the pristine copy
  unsigned long long mismatches = 0;          // elements outside tolerance or with misplaced NaN/Inf
  unsigned long long unwritten = 0;           // elements still holding the poison bytes (ref does not)
  unsigned long long differs_from_first = 0;  // elements not bitwise equal to element 0
  unsigned long long run_differs = 0;         // 16-byte words where run 2 differs from run 1
  unsigned long long max_abs_bits = 0;        // max |got - ref| (double bits; non-negative, so ordered)
  unsigned long long max_rel_bits = 0;
};

// All launches go to cudaStreamPerThread. `counts` is a device pointer.
void launch_count_bytes_not_equal(void const* data, std::size_t bytes, unsigned char value,
                                  unsigned long long* counter);
void launch_count_words_differing(void const* a, void const* b, std::size_t bytes,
                                  unsigned long long* counter);
// `reference` is masked under `key` (masked_results.hpp); the key reaches the device only here, after
// the candidate has finished.
void launch_compare(DType dtype, void const* reference, std::uint64_t key, void const* candidate,
                    std::size_t count, double absolute_allowance, double rtol, bool exact, int poison,
                    DeviceCounts* counts);
void launch_count_differs_from_first(void const* data, std::size_t count, std::size_t element_size,
                                     unsigned long long* counter);

double bits_to_double(unsigned long long bits);

}  // namespace kopt::worker
