// `kopt report RUN_ID [-o FILE] [--format html|md] [--store PATH] [--json]`, and `kopt report --session ID`
// for a library session. Reads the store, creates nothing but the output file.
#include <fmt/format.h>

#include <fstream>
#include <ostream>

#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "cli/printable_text.hpp"
#include "kopt/json_values.hpp"
#include "kopt/report.hpp"
#include "kopt/run_report.hpp"
#include "kopt/store.hpp"
#include "kopt/text.hpp"

namespace kopt::cli {
namespace {

// What a report prints: the rendered text, its JSON, and the line that says what -o wrote.
struct RenderedReport {
  std::string text;
  nlohmann::json json;
  std::string summary;  // "run 3, 24 evaluations, best 2.1x on the confirm tier"
};

Result<RenderedReport> render_run(Store& store, RunId run, ReportFormat format) {
  auto report = build_run_report(store, run);
  if (!report) return report.error();
  std::string const best = report->best
                               ? fmt::format("best {} on the {} tier",
                                             format_ratio(report->best->geomean_speedup), report->best->tier)
                               : std::string("no candidate passed verification");
  return RenderedReport{
      format == ReportFormat::html ? render_run_html(*report) : render_run_markdown(*report),
      to_json(*report),
      fmt::format("run {}, {} evaluations, {}", run.value(), report->evaluations.size(), best)};
}

Result<RenderedReport> render_session(Store& store, SessionId session, ReportFormat format) {
  auto report = build_session_report(store, session);
  if (!report) return report.error();
  std::string best = "no candidate passed verification";
  if (report->best_run) {
    auto const& run = report->runs[*report->best_run];
    best = fmt::format("best {} on the {} tier (run {}, {})", format_ratio(run.report.best->geomean_speedup),
                       run.report.best->tier, run.report.run.value(), run.strategy);
  }
  return RenderedReport{
      format == ReportFormat::html ? render_session_html(*report) : render_session_markdown(*report),
      to_json(*report), fmt::format("session {}, {} runs, {}", session.value(), report->runs.size(), best)};
}

}  // namespace

int run_report(ReportArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), args.json, console.out,
                        console.err);
  };
  if ((args.run > 0) == (args.session > 0)) {
    return fail(make_error(ErrorCode::invalid_argument, "report: expected a run id or --session ID"));
  }
  auto format = report_format_for(args);
  if (!format) return fail(format.error());
  if (!args.out.empty()) {
    if (auto status = check_output_path(args.out); !status) return fail(status.error());
  }
  auto store = open_store_to_read(args.store);
  if (!store) return fail(store.error());
  auto rendered = args.session > 0 ? render_session(*store, SessionId(args.session), *format)
                                   : render_run(*store, RunId(args.run), *format);
  if (!rendered) return fail(rendered.error());

  if (!args.out.empty()) {
    if (!write_text_file(args.out, rendered->text)) {
      return fail(make_error(ErrorCode::io_error, fmt::format("-o: cannot write '{}'", args.out)));
    }
  }
  if (args.json) {
    console.out << json_text(rendered->json) << '\n';
  } else if (args.out.empty()) {
    console.out << rendered->text;
  }
  if (!args.out.empty()) {
    (args.json ? console.err : console.out)
        << fmt::format("wrote {} ({}): {}\n", printable_text(args.out),
                       *format == ReportFormat::html ? "html" : "markdown", rendered->summary);
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
