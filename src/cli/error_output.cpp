#include "cli/error_output.hpp"

#include <ostream>

#include "cli/printable_text.hpp"
#include "kopt/json_values.hpp"

namespace kopt::cli {

nlohmann::json error_to_json(Error const& error, ExitCode exit_code) {
  return {{"error",
           {{"code", to_string(error.code)}, {"message", error.message}, {"exit_code", to_int(exit_code)}}}};
}

int report_error(Error const& error, ExitCode exit_code, bool json, std::ostream& out, std::ostream& err) {
  // The message may quote what the user gave (a path, an option value): printable, never a terminal
  // control sequence, and shortened when a line is very long. --json keeps it whole.
  err << "kopt: error: " << printable_text(error.message) << '\n';
  if (exit_code == ExitCode::internal) {
    err << "kopt: this is a bug in kopt; please report it with the command line and the message above.\n";
  }
  if (json) out << json_text(error_to_json(error, exit_code)) << '\n';
  return to_int(exit_code);
}

void report_warning(std::string_view message, std::ostream& err) {
  err << "kopt: warning: " << printable_text(message) << '\n';
}

}  // namespace kopt::cli
