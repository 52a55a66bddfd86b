#include "profile/csv_line.hpp"

namespace kopt::detail {

std::optional<std::vector<std::string>> split_csv_line(std::string_view line) {
  std::vector<std::string> fields;
  std::string field;
  std::size_t i = 0;
  while (true) {
    field.clear();
    if (i < line.size() && line[i] == '"') {
      ++i;
      bool closed = false;
      while (i < line.size()) {
        char const c = line[i++];
        if (c != '"') {
          field += c;
        } else if (i < line.size() && line[i] == '"') {
          field += '"';
          ++i;
        } else {
          closed = true;
          break;
        }
      }
      if (!closed) return std::nullopt;
      if (i < line.size() && line[i] != ',') return std::nullopt;  // text after the closing quote
    } else {
      while (i < line.size() && line[i] != ',') {
        if (line[i] == '"') return std::nullopt;  // a quote inside an unquoted field
        field += line[i++];
      }
    }
    fields.push_back(field);
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return fields;
}

}  // namespace kopt::detail
