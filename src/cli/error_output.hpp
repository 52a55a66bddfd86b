// How `kopt` reports that it could not do what was asked: "kopt: error: <message>" on stderr and, with
// --json, {"error": {"code", "message", "exit_code"}} on stdout so scripts always get a document.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string_view>

#include "cli/exit_code.hpp"
#include "kopt/result.hpp"

namespace kopt::cli {

nlohmann::json error_to_json(Error const& error, ExitCode exit_code);

// Prints the error (its message through printable_text on the terminal, whole in JSON); internal errors
// also ask to report the bug. Returns the exit code as an int.
int report_error(Error const& error, ExitCode exit_code, bool json, std::ostream& out, std::ostream& err);

// Prints "kopt: warning: <message>" on `err`, the message through printable_text as errors are.
void report_warning(std::string_view message, std::ostream& err);

}  // namespace kopt::cli
