// Splitting one line of CSV text into fields.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::detail {

// The fields of one CSV line: separated by ',', optionally enclosed in '"' (a doubled quote inside
// quotes is one quote; a comma inside quotes is text). nullopt when a quote is left open or text
// follows a closing quote, i.e. when the line is not a well-formed CSV record.
std::optional<std::vector<std::string>> split_csv_line(std::string_view line);

}  // namespace kopt::detail
