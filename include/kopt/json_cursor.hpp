// Reading kopt's JSON documents without exceptions: a cursor walks the document, remembers the path it took
// ("candidates[0].sizes[1].status") and records the first mismatch; accessors then return defaults.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "kopt/json_values.hpp"

namespace kopt::json_doc {

class JsonCursor {
 public:
  // `error` collects the first problem found anywhere below this cursor; it must outlive the cursor.
  JsonCursor(nlohmann::json const& node, std::string path, std::string* error);

  JsonCursor field(std::string_view key) const;           // records an error when the key is missing
  JsonCursor optional_field(std::string_view key) const;  // a missing key reads as null (no error)
  JsonCursor element(std::size_t index) const;
  std::size_t array_size() const;  // records an error (and returns 0) for non-arrays
  bool is_null() const;

  double as_number() const;  // also "inf", "-inf", "nan"
  std::optional<double> as_optional_number() const;
  std::int64_t as_int64() const;
  int as_int() const;
  std::uint64_t as_uint64() const;
  bool as_bool() const;
  std::string as_string() const;
  // Records "<path>: expected <what>, found <actual>" unless an earlier error was recorded.
  void fail(std::string_view expected) const;

  std::string const& path() const noexcept { return path_; }

 private:
  nlohmann::json const* node_;
  std::string path_;
  std::string* error_;
};

// Numbers that JSON cannot hold (inf, nan) are written as strings.
using kopt::number_to_json;           // kopt/json_values.hpp
using kopt::optional_number_to_json;  // kopt/json_values.hpp

}  // namespace kopt::json_doc
