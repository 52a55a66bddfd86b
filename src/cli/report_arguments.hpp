// The command line of `kopt report RUN_ID [-o FILE] [--format html|md] [--store PATH] [--json]`
// (registered in command_registry.cpp) and the choice of output format.
#pragma once

#include <cstdint>
#include <string>

#include "kopt/result.hpp"

namespace CLI {
class App;
}

namespace kopt::cli {

struct ReportArgs {
  std::int64_t run = 0;      // 0: not given (then --session is)
  std::int64_t session = 0;  // --session: the report of a library session
  std::string out;           // empty: print to stdout
  std::string format;        // html, md; empty: from the extension of `out`
  std::string store;         // empty: .kopt/kopt.db
  bool json = false;         // print the kopt.run_report/1 document on stdout
};

enum class ReportFormat { html, markdown };

// --format when given; else from -o's extension (.html/.htm: html, .md/.markdown: markdown, other: html);
// without -o, markdown. Error (invalid_argument) for a --format other than html or md.
Result<ReportFormat> report_format_for(ReportArgs const& args);

struct CliArguments;
void define_report_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
