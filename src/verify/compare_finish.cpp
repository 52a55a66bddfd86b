// Tallies of compare_outputs' two passes: merging partial tallies and turning the final ones into a
// CompareResult with its one-line summary.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "verify/compare_detail.hpp"

namespace kopt::detail {
namespace {

// NOLINTNEXTLINE(cert-dcl50-cpp): C varargs for vsnprintf, the arguments checked by the format attribute
__attribute__((format(printf, 1, 2))) std::string printf_string(char const* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  int const written = std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (written < 0) return {};
  return std::string(buffer, std::min(static_cast<std::size_t>(written), sizeof(buffer) - 1));
}

std::string join(std::vector<std::string> const& parts, char const* separator) {
  std::string text;
  for (auto const& part : parts) {
    if (!text.empty()) text += separator;
    text += part;
  }
  return text;
}

std::string describe(CompareLocation const& where) {
  return printf_string("[%zu]: got %.6g, expected %.6g", where.index, where.got, where.expected);
}

}  // namespace

void ReferenceTally::merge(ReferenceTally const& other) noexcept {
  ref_scale = std::max(ref_scale, other.ref_scale);
  reference_varies = reference_varies || other.reference_varies;
}

void ElementTally::merge_following(ElementTally const& later) noexcept {
  candidate_constant = candidate_constant && later.candidate_constant;
  unwritten += later.unwritten;
  mismatches += later.mismatches;
  nonfinite_mismatches += later.nonfinite_mismatches;
  finite_mismatches += later.finite_mismatches;
  if (later.max_error_at && (!max_error_at || later.max_abs_err > max_abs_err)) {
    max_abs_err = later.max_abs_err;
    max_error_at = later.max_error_at;
  }
  max_rel_err = std::max(max_rel_err, later.max_rel_err);
  if (!first_bad) first_bad = later.first_bad;
  if (!first_unwritten) first_unwritten = later.first_unwritten;
  if (!first_nonfinite) first_nonfinite = later.first_nonfinite;
}

std::optional<CompareResult> compare_trivial_cases(DType dtype, std::span<std::byte const> reference,
                                                   std::span<std::byte const> candidate) {
  CompareResult result;
  std::size_t const element_size = size_of(dtype);
  if (element_size == 0 || reference.size() != candidate.size() || reference.size() % element_size != 0) {
    result.count = element_size == 0 ? 0 : reference.size() / element_size;
    result.summary = printf_string(
        "candidate output has %zu bytes but the reference has %zu (%s elements of %zu bytes)",
        candidate.size(), reference.size(), std::string(to_string(dtype)).c_str(), element_size);
    return result;
  }
  if (reference.empty()) {
    result.passed = true;
    result.summary = "empty output (0 elements)";
    return result;
  }
  return std::nullopt;
}

bool compares_exactly(DType dtype, ToleranceSpec const& tolerance) noexcept {
  return !is_floating(dtype) && !(tolerance.atol > 0.0);
}

CompareResult finish_compare(DType dtype, std::span<std::byte const> candidate, std::size_t count,
                             ToleranceSpec const& tolerance, ReferenceTally const& reference,
                             ElementTally const& elements) {
  CompareResult result;
  result.count = count;
  result.ref_scale = reference.ref_scale;
  result.unwritten = elements.unwritten;
  result.mismatches = elements.mismatches;
  result.nonfinite_mismatches = elements.nonfinite_mismatches;
  result.max_abs_err = elements.max_abs_err;
  result.max_rel_err = elements.max_rel_err;
  if (elements.first_bad) {
    result.first_bad = elements.first_bad->index;
    result.ref_at_first_bad = elements.first_bad->expected;
    result.got_at_first_bad = elements.first_bad->got;
  }
  result.constant_output = count >= 2 && elements.candidate_constant && reference.reference_varies;
  bool const within_fraction =
      static_cast<double>(result.mismatches) <= tolerance.mismatch_fraction * static_cast<double>(count);
  result.passed = result.unwritten == 0 && within_fraction && !result.constant_output;

  // The one-line summary.
  std::string const tolerance_text =
      compares_exactly(dtype, tolerance)
          ? std::string("exact integer comparison")
          : printf_string("atol %g x scale %.3g, rtol %g", tolerance.atol, result.ref_scale, tolerance.rtol);
  std::vector<std::string> problems;
  if (result.unwritten > 0 && elements.first_unwritten) {
    problems.push_back(printf_string("%zu of %zu elements never written (still poison), first at [%zu]",
                                     result.unwritten, count, elements.first_unwritten->index));
  }
  if (result.mismatches > 0) {
    std::vector<std::string> details;
    if (result.nonfinite_mismatches > 0 && elements.first_nonfinite) {
      details.push_back(printf_string("%zu NaN/Inf misplaced, first at ", result.nonfinite_mismatches) +
                        describe(*elements.first_nonfinite));
    }
    if (elements.finite_mismatches > 0 && elements.max_error_at) {
      details.push_back(printf_string("max abs err %.1e at ", result.max_abs_err) +
                        describe(*elements.max_error_at));
    }
    details.push_back(tolerance_text);
    std::string text = printf_string("%zu of %zu elements outside tolerance", result.mismatches, count);
    if (within_fraction)
      text += printf_string(", within the allowed fraction %g", tolerance.mismatch_fraction);
    problems.push_back(text + " (" + join(details, "; ") + ")");
  }
  if (result.constant_output) {
    problems.push_back(printf_string("output is constant (every element %.6g) while the reference varies",
                                     element_as_double(dtype, candidate.data(), 0)));
  }
  if (problems.empty()) {
    result.summary = printf_string("all %zu elements within tolerance (max abs err %.1e, max rel err %.1e; ",
                                   count, result.max_abs_err, result.max_rel_err) +
                     tolerance_text + ")";
  } else {
    result.summary = join(problems, "; ");
  }
  return result;
}

}  // namespace kopt::detail
