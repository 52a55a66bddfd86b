// The serial reference implementation of compare_outputs: one loop per pass on the calling thread,
// every element decoded through element_as_double. Tests check the parallel version against it.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "verify/compare_detail.hpp"

namespace kopt::detail {
namespace {

bool all_bytes_equal(std::byte const* element, std::size_t size, std::byte value) {
  for (std::size_t i = 0; i < size; ++i) {
    if (element[i] != value) return false;
  }
  return true;
}

bool same_value(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

}  // namespace

CompareResult compare_outputs_serial(DType dtype, std::span<std::byte const> reference,
                                     std::span<std::byte const> candidate, ToleranceSpec const& tolerance,
                                     std::optional<std::byte> poison) {
  if (auto trivial = compare_trivial_cases(dtype, reference, candidate)) return *trivial;
  std::size_t const element_size = size_of(dtype);
  std::size_t const count = reference.size() / element_size;
  std::byte const* ref_data = reference.data();
  std::byte const* got_data = candidate.data();

  // Pass 1: the reference's magnitude and whether it varies at all.
  ReferenceTally scale;
  double const first_ref = element_as_double(dtype, ref_data, 0);
  for (std::size_t i = 0; i < count; ++i) {
    double const ref = element_as_double(dtype, ref_data, i);
    if (std::isfinite(ref)) scale.ref_scale = std::max(scale.ref_scale, std::fabs(ref));
    if (!scale.reference_varies && !same_value(ref, first_ref)) scale.reference_varies = true;
  }

  bool const exact_integers = compares_exactly(dtype, tolerance);
  double const absolute_allowance = tolerance.atol * std::max(scale.ref_scale, kTinyScale);

  // Pass 2: every element.
  ElementTally tally;
  for (std::size_t i = 0; i < count; ++i) {
    std::byte const* ref_element = ref_data + i * element_size;
    std::byte const* got_element = got_data + i * element_size;
    if (tally.candidate_constant && std::memcmp(got_element, got_data, element_size) != 0)
      tally.candidate_constant = false;
    double const ref = element_as_double(dtype, ref_data, i);
    double const got = element_as_double(dtype, got_data, i);
    if (poison && all_bytes_equal(got_element, element_size, *poison) &&
        !all_bytes_equal(ref_element, element_size, *poison)) {
      ++tally.unwritten;
      if (!tally.first_unwritten) tally.first_unwritten = CompareLocation{i, got, ref};
      if (!tally.first_bad) tally.first_bad = CompareLocation{i, got, ref};
      continue;
    }
    bool ok = true;
    if (!std::isfinite(ref) || !std::isfinite(got)) {
      ok = (std::isnan(ref) && std::isnan(got)) || ref == got;
      if (!ok) {
        ++tally.nonfinite_mismatches;
        if (!tally.first_nonfinite) tally.first_nonfinite = CompareLocation{i, got, ref};
      }
    } else {
      double const error = std::fabs(got - ref);
      if (exact_integers) {
        ok = std::memcmp(got_element, ref_element, element_size) == 0;
      } else {
        ok = error <= absolute_allowance + tolerance.rtol * std::fabs(ref);
      }
      if (!tally.max_error_at || error > tally.max_abs_err) {
        tally.max_abs_err = error;
        tally.max_error_at = CompareLocation{i, got, ref};
      }
      tally.max_rel_err = std::max(tally.max_rel_err, error / std::max(std::fabs(ref), kTinyScale));
      if (!ok) ++tally.finite_mismatches;
    }
    if (!ok) {
      ++tally.mismatches;
      if (!tally.first_bad) tally.first_bad = CompareLocation{i, got, ref};
    }
  }
  return finish_compare(dtype, candidate, count, tolerance, scale, tally);
}

}  // namespace kopt::detail
