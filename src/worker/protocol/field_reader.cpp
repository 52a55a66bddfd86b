#include "worker/protocol/field_reader.hpp"

namespace kopt::worker {

using nlohmann::json;

FieldReader::FieldReader(json const& object, std::string where, std::string& error)
    : object_(object), where_(std::move(where)), error_(error) {
  if (!object_.is_object()) fail(where_, "expected an object, got " + std::string(object_.type_name()));
}

std::string FieldReader::path(std::string const& name) const {
  return where_.empty() ? name : where_ + "." + name;
}

json const* FieldReader::field(std::string const& name) {
  if (failed()) return nullptr;
  read_.insert(name);
  auto it = object_.find(name);
  if (it == object_.end()) {
    fail(path(name), "missing");
    return nullptr;
  }
  return &*it;
}

json const* FieldReader::optional_field(std::string const& name) {
  if (failed() || !object_.is_object()) return nullptr;
  read_.insert(name);
  auto it = object_.find(name);
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

double FieldReader::number(std::string const& name) {
  json const* j = field(name);
  if (j == nullptr) return 0.0;
  if (!j->is_number()) {
    fail(path(name), "expected a number, got " + std::string(j->type_name()));
    return 0.0;
  }
  return j->get<double>();
}

std::optional<double> FieldReader::optional_number(std::string const& name) {
  json const* j = optional_field(name);
  if (j == nullptr) return std::nullopt;
  if (!j->is_number()) {
    fail(path(name), "expected a number or null, got " + std::string(j->type_name()));
    return std::nullopt;
  }
  return j->get<double>();
}

bool FieldReader::is_count(json const& j) {
  return j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0);
}

std::uint64_t FieldReader::count(std::string const& name) {
  json const* j = field(name);
  if (j == nullptr) return 0;
  if (!is_count(*j)) {
    fail(path(name), "expected a non-negative integer, got " + j->dump());
    return 0;
  }
  return j->get<std::uint64_t>();
}

std::int64_t FieldReader::integer(std::string const& name) {
  json const* j = field(name);
  if (j == nullptr) return 0;
  if (!j->is_number_integer()) {
    fail(path(name), "expected an integer, got " + std::string(j->type_name()));
    return 0;
  }
  return j->get<std::int64_t>();
}

bool FieldReader::boolean(std::string const& name) {
  json const* j = field(name);
  if (j == nullptr) return false;
  if (!j->is_boolean()) {
    fail(path(name), "expected true or false, got " + std::string(j->type_name()));
    return false;
  }
  return j->get<bool>();
}

bool FieldReader::optional_flag(std::string const& name) {
  json const* j = optional_field(name);
  if (j == nullptr) return false;
  if (!j->is_boolean()) {
    fail(path(name), "expected true, false or null, got " + std::string(j->type_name()));
    return false;
  }
  return j->get<bool>();
}

std::string FieldReader::text(std::string const& name) {
  json const* j = field(name);
  if (j == nullptr) return {};
  if (!j->is_string()) {
    fail(path(name), "expected a string, got " + std::string(j->type_name()));
    return {};
  }
  return j->get<std::string>();
}

std::optional<std::string> FieldReader::optional_text(std::string const& name) {
  json const* j = optional_field(name);
  if (j == nullptr) return std::nullopt;
  if (!j->is_string()) {
    fail(path(name), "expected a string or null, got " + std::string(j->type_name()));
    return std::nullopt;
  }
  return j->get<std::string>();
}

std::optional<std::string> FieldReader::nullable_text(std::string const& name) {
  json const* j = field(name);
  if (j == nullptr || j->is_null()) return std::nullopt;
  if (!j->is_string()) {
    fail(path(name), "expected a string or null, got " + std::string(j->type_name()));
    return std::nullopt;
  }
  return j->get<std::string>();
}

std::vector<std::string> FieldReader::texts(std::string const& name) {
  std::vector<std::string> out;
  json const* list = array(name);
  if (list == nullptr) return out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_string()) {
      fail(path(name) + "[" + std::to_string(i) + "]", "expected a string");
      return {};
    }
    out.push_back((*list)[i].get<std::string>());
  }
  return out;
}

std::vector<std::uint64_t> FieldReader::counts(std::string const& name) {
  std::vector<std::uint64_t> out;
  json const* list = array(name);
  if (list == nullptr) return out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (!is_count((*list)[i])) {
      fail(path(name) + "[" + std::to_string(i) + "]", "expected a non-negative integer");
      return {};
    }
    out.push_back((*list)[i].get<std::uint64_t>());
  }
  return out;
}

json const* FieldReader::array(std::string const& name) {
  json const* j = field(name);
  if (j == nullptr) return nullptr;
  if (!j->is_array()) {
    fail(path(name), "expected an array, got " + std::string(j->type_name()));
    return nullptr;
  }
  return j;
}

json const* FieldReader::object(std::string const& name) {
  json const* j = field(name);
  if (j == nullptr) return nullptr;
  if (!j->is_object()) {
    fail(path(name), "expected an object, got " + std::string(j->type_name()));
    return nullptr;
  }
  return j;
}

CandidateStatus FieldReader::status(std::string const& name) {
  std::string const value = text(name);
  if (failed()) return CandidateStatus::runtime_error;
  auto status = candidate_status_from_string(value);
  if (!status) {
    fail(path(name), "unknown status '" + value + "'");
    return CandidateStatus::runtime_error;
  }
  return *status;
}

void FieldReader::expect_text(std::string const& name, std::string const& expected) {
  std::string const value = text(name);
  if (!failed() && value != expected)
    fail(path(name), "expected \"" + expected + "\", got \"" + value + "\"");
}

void FieldReader::finish() {
  if (failed() || !object_.is_object()) return;
  for (auto const& item : object_.items()) {
    if (!read_.contains(item.key())) {
      fail(path(item.key()), "unknown field");
      return;
    }
  }
}

void FieldReader::fail(std::string const& where, std::string const& what) {
  if (error_.empty()) error_ = (where.empty() ? std::string("message") : where) + ": " + what;
}

Status read_status(std::string const& error, std::string const& message) {
  if (error.empty()) return Ok{};
  return make_error(ErrorCode::worker_error, "malformed " + message + ": " + error);
}

}  // namespace kopt::worker
