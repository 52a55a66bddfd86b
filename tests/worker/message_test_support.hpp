// Helpers for the worker protocol's message tests: every field of a complete message, and the message
// without one of them, so that a test can take each required field away in turn.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace kopt::worker::message_test {

// A field of a message: its path as the readers name it ("sizes[0].size") and as a JSON pointer.
struct FieldPath {
  std::string name;
  nlohmann::json::json_pointer pointer;
};

// Every object member of `j`, nested objects included; arrays are entered at their first element.
inline void collect_fields(nlohmann::json const& j, std::string const& name, std::string const& pointer,
                           std::vector<FieldPath>& out) {
  if (j.is_object()) {
    for (auto const& item : j.items()) {
      std::string const child = name.empty() ? item.key() : name + "." + item.key();
      std::string const child_pointer = pointer + "/" + item.key();
      out.push_back(FieldPath{child, nlohmann::json::json_pointer(child_pointer)});
      collect_fields(item.value(), child, child_pointer, out);
    }
  } else if (j.is_array() && !j.empty()) {
    collect_fields(j[0], name + "[0]", pointer + "/0", out);
  }
}

inline std::vector<FieldPath> fields_of(nlohmann::json const& message) {
  std::vector<FieldPath> out;
  collect_fields(message, "", "", out);
  return out;
}

inline nlohmann::json without(nlohmann::json message, FieldPath const& field) {
  message[field.pointer.parent_pointer()].erase(field.pointer.back());
  return message;
}

// Takes each field of `complete` away in turn: a required one must be refused with an error that names
// the message and the field ("malformed <what>: <field>: missing"), an optional one (listed in
// `optional`) must still be read. Returns how many fields were tried.
template <class Parse>
std::size_t expect_each_required_field(nlohmann::json const& complete, Parse parse, std::string const& what,
                                       std::set<std::string> const& optional) {
  std::size_t tried = 0;
  for (auto const& field : fields_of(complete)) {
    ++tried;
    auto const read = parse(without(complete, field));
    if (optional.count(field.name) > 0) {
      EXPECT_TRUE(read) << what << " without optional " << field.name << ": " << read.error().message;
      continue;
    }
    if (read) {
      ADD_FAILURE() << what << " without " << field.name << " was accepted";
      continue;
    }
    std::string const expected = "malformed " + what + ": " + field.name + ": missing";
    EXPECT_EQ(read.error().message, expected);
  }
  return tried;
}

}  // namespace kopt::worker::message_test
