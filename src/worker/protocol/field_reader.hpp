// Strict reading of one JSON object of the worker protocol, shared by every message reader in this folder.
// Readers fail closed (docs/worker-protocol.md, "Messages fail closed"): the first problem is kept with the
// field's path ("sizes[1].status: missing") and later reads return empty values, so a reader can read a
// whole message straight through and look at the error once; finish() refuses fields nobody read, so a
// field one side writes and the other does not know is an error rather than silently lost. Private to
// src/worker/protocol.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kopt/candidate_status.hpp"
#include "kopt/result.hpp"

namespace kopt::worker {

class FieldReader {
 public:
  // `where`: the path of `object` inside its message ("" for the message itself); `error` collects the
  // first problem of the whole message, shared by the readers of its nested objects.
  FieldReader(nlohmann::json const& object, std::string where, std::string& error);

  std::string path(std::string const& name) const;
  bool failed() const noexcept { return !error_.empty(); }

  // The field, present (possibly null); nullptr after an error or when it is missing (an error).
  nlohmann::json const* field(std::string const& name);
  // The field when it is present and not null; nullptr otherwise, which is no error (an optional field).
  nlohmann::json const* optional_field(std::string const& name);

  double number(std::string const& name);
  std::optional<double> optional_number(std::string const& name);  // absent or null: nullopt
  std::uint64_t count(std::string const& name);                    // a non-negative integer
  std::int64_t integer(std::string const& name);
  bool boolean(std::string const& name);
  bool optional_flag(std::string const& name);  // absent or null: false
  std::string text(std::string const& name);
  std::optional<std::string> optional_text(std::string const& name);  // absent or null: nullopt
  std::optional<std::string> nullable_text(std::string const& name);  // present; null: nullopt
  std::vector<std::string> texts(std::string const& name);            // an array of strings
  std::vector<std::uint64_t> counts(std::string const& name);         // an array of non-negative integers
  nlohmann::json const* array(std::string const& name);
  nlohmann::json const* object(std::string const& name);
  CandidateStatus status(std::string const& name);  // a status kopt knows

  // Reads `name` and fails unless it equals `expected` (the "op" of a request, the "reply" of a reply).
  void expect_text(std::string const& name, std::string const& expected);

  // Refuses the first field that was never read.
  void finish();
  void fail(std::string const& where, std::string const& what);

 private:
  static bool is_count(nlohmann::json const& j);

  nlohmann::json const& object_;
  std::string where_;
  std::string& error_;
  std::set<std::string> read_;
};

// `error` (from the readers of `message`) as a Status: "malformed <message>: <field>: <problem>".
Status read_status(std::string const& error, std::string const& message);

}  // namespace kopt::worker
