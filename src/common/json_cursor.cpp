#include "kopt/json_cursor.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace kopt::json_doc {
namespace {

nlohmann::json const& null_json() {
  static nlohmann::json const kNull;
  return kNull;
}

std::string describe(nlohmann::json const& node) {
  std::string text = node.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return fmt::format("{} {}", node.type_name(), text);
}

}  // namespace

JsonCursor::JsonCursor(nlohmann::json const& node, std::string path, std::string* error)
    : node_(&node), path_(std::move(path)), error_(error) {}

void JsonCursor::fail(std::string_view expected) const {
  if (!error_->empty()) return;
  *error_ = fmt::format("field '{}': expected {}, found {}", path_.empty() ? "<document>" : path_, expected,
                        describe(*node_));
}

JsonCursor JsonCursor::field(std::string_view key) const {
  std::string child_path = path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
  if (!node_->is_object()) {
    fail("an object");
    return {null_json(), child_path, error_};
  }
  auto it = node_->find(key);
  if (it == node_->end()) {
    if (error_->empty()) *error_ = fmt::format("field '{}': missing", child_path);
    return {null_json(), child_path, error_};
  }
  return {*it, child_path, error_};
}

JsonCursor JsonCursor::optional_field(std::string_view key) const {
  if (node_->is_object() && node_->find(key) == node_->end()) {
    return {null_json(), path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key), error_};
  }
  return field(key);
}

JsonCursor JsonCursor::element(std::size_t index) const {
  std::string child_path = fmt::format("{}[{}]", path_, index);
  if (!node_->is_array() || index >= node_->size()) {
    fail(fmt::format("an array with an element {}", index));
    return {null_json(), child_path, error_};
  }
  return {(*node_)[index], child_path, error_};
}

std::size_t JsonCursor::array_size() const {
  if (!node_->is_array()) {
    fail("an array");
    return 0;
  }
  return node_->size();
}

bool JsonCursor::is_null() const {
  return node_->is_null();
}

double JsonCursor::as_number() const {
  if (node_->is_number()) return node_->get<double>();
  if (node_->is_string()) {
    auto const& text = node_->get_ref<std::string const&>();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  }
  fail("a number (or \"inf\", \"-inf\", \"nan\")");
  return 0.0;
}

std::optional<double> JsonCursor::as_optional_number() const {
  if (node_->is_null()) return std::nullopt;
  return as_number();
}

std::int64_t JsonCursor::as_int64() const {
  if (node_->is_number_unsigned()) {
    auto value = node_->get<std::uint64_t>();
    if (value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return static_cast<std::int64_t>(value);
    }
  } else if (node_->is_number_integer()) {
    return node_->get<std::int64_t>();
  }
  fail("a 64-bit signed integer");
  return 0;
}

int JsonCursor::as_int() const {
  if (node_->is_number_integer()) {
    std::int64_t value = as_int64();
    if (value >= std::numeric_limits<int>::min() && value <= std::numeric_limits<int>::max()) {
      return static_cast<int>(value);
    }
  }
  fail("a 32-bit integer");
  return 0;
}

std::uint64_t JsonCursor::as_uint64() const {
  if (node_->is_number_unsigned()) return node_->get<std::uint64_t>();
  if (node_->is_number_integer() && node_->get<std::int64_t>() >= 0) {
    return static_cast<std::uint64_t>(node_->get<std::int64_t>());
  }
  fail("a non-negative integer");
  return 0;
}

bool JsonCursor::as_bool() const {
  if (node_->is_boolean()) return node_->get<bool>();
  fail("true or false");
  return false;
}

std::string JsonCursor::as_string() const {
  if (node_->is_string()) return node_->get<std::string>();
  fail("a string");
  return {};
}

}  // namespace kopt::json_doc
