#include "cli/report_arguments.hpp"

#include "cli/option_checks.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "cli/arguments.hpp"
#include "cli/help_text.hpp"

namespace kopt::cli {

Result<ReportFormat> report_format_for(ReportArgs const& args) {
  if (args.format == "html") return ReportFormat::html;
  if (args.format == "md") return ReportFormat::markdown;
  if (!args.format.empty())
    return make_error(ErrorCode::invalid_argument,
                      "--format: expected html or md, got '" + args.format + "'");
  if (args.out.empty()) return ReportFormat::markdown;
  std::string extension = std::filesystem::path(args.out).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".md" || extension == ".markdown") return ReportFormat::markdown;
  return ReportFormat::html;
}

void define_report_command(CLI::App& app, CliArguments& args) {
  auto* report = app.add_subcommand("report", help::report_description());
  report->footer(help::report_footer());
  auto& a = args.report;
  auto* run = report->add_option("run", a.run, "run id (from `kopt runs`)")->check(whole_number_at_least(1));
  auto* session = report->add_option("--session", a.session, "session id (from `kopt runs`) instead of a run")
                      ->check(whole_number_at_least(1));
  run->excludes(session);
  session->excludes(run);
  report->add_option("-o,--out", a.out, "file to write, e.g. report.html (default: Markdown on stdout)");
  report->add_option("--format", a.format, "html or md (default: from the -o extension, else html)")
      ->check(CLI::IsMember({"html", "md"}));
  report->add_option("--store", a.store, "SQLite store (default .kopt/kopt.db); read, never created");
  report->add_flag("--json", a.json, "print a kopt.run_report/1 JSON document on stdout");
  report->callback([&args] {
    if ((args.report.run > 0) == (args.report.session > 0))
      throw CLI::ValidationError("report", "expected a run id or --session ID");
  });
}

}  // namespace kopt::cli
