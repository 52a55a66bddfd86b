// Numbers in kopt's JSON documents, written one way everywhere.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace kopt {

// A number, or null when there is none (JSON has no NaN: nlohmann writes a non-finite number as null).
inline nlohmann::json number_or_null(std::optional<double> const& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// A number in the report documents (kopt.eval/1, the run report): NaN and infinities as the strings
// "nan", "inf" and "-inf", which their readers accept, so that a broken measurement stays visible.
inline nlohmann::json number_to_json(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}
inline nlohmann::json optional_number_to_json(std::optional<double> const& value) {
  return value ? number_to_json(*value) : nlohmann::json(nullptr);
}

// A JSON document as text, indented by `indent` (-1: one line). Strings that came from the input (a task
// field, a signature, a compiler's output) may hold invalid UTF-8, on which nlohmann's dump throws
// (type_error 316, seen when fuzzing: a clear error message followed by an internal error); such bytes are
// written as U+FFFD instead, so a document, an error report above all, is always written.
inline std::string json_text(nlohmann::json const& document, int indent = 2) {
  return document.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace kopt
