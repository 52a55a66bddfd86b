#include "inputs/generator_catalog.hpp"

#include "kopt/inputs.hpp"

namespace kopt {
namespace {

std::vector<GeneratorKind> const& catalog() {
  static std::vector<GeneratorKind> const kinds{
      {"uniform", false, {}, {"low", "high"}, {}, false},
      {"normal", false, {}, {"mean", "std"}, {}, false},
      {"int_uniform", false, {"low", "high"}, {}, {}, false},
      {"constant", false, {"value"}, {}, {}, false},
      {"arange", false, {}, {"start", "step"}, {}, false},
      {"sorted_offsets", false, {"total"}, {}, {}, false},
      {"permutation", false, {}, {"high"}, {}, false},
      {"probability_rows", false, {"cols"}, {}, {}, true},
      {"csr",
       true,
       {"rows", "cols", "nnz"},
       {"row_lengths", "alpha", "value_low", "value_high"},
       {"row_ptr", "col_idx", "values"},
       false},
      {"coo",
       true,
       {"rows", "cols", "nnz"},
       {"row_lengths", "alpha", "value_low", "value_high"},
       {"row_idx", "col_idx", "values"},
       false},
      {"csc",
       true,
       {"rows", "cols", "nnz"},
       {"row_lengths", "alpha", "value_low", "value_high"},
       {"col_ptr", "row_idx", "values"},
       false},
      {"ell", true, {"rows", "cols", "width"}, {"value_low", "value_high"}, {"col_idx", "values"}, false},
  };
  return kinds;
}

}  // namespace

std::span<GeneratorKind const> all_generator_kinds() {
  return catalog();
}

GeneratorKind const* find_generator_kind(std::string_view name) {
  for (auto const& kind : catalog()) {
    if (kind.name == name) return &kind;
  }
  return nullptr;
}

std::string join_names(std::vector<std::string_view> const& names) {
  std::string text;
  for (auto name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

std::string kind_list(bool structured) {
  std::vector<std::string_view> names;
  for (auto const& kind : catalog()) {
    if (kind.structured == structured) names.push_back(kind.name);
  }
  return join_names(names);
}

std::vector<std::string> generator_kinds() {
  std::vector<std::string> names;
  for (auto const& kind : catalog()) names.emplace_back(kind.name);
  return names;
}

}  // namespace kopt
