// `kopt report RUN_ID [-o FILE] [--format html|md] [--store PATH] [--json]`
#include <fmt/format.h>

#include <fstream>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "kopt/report.hpp"
#include "kopt/run_report.hpp"
#include "kopt/store.hpp"

namespace kopt::cli {
namespace {

Status write_file(std::filesystem::path const& path, std::string const& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  file.close();
  if (!file) return make_error(ErrorCode::io_error, fmt::format("-o: cannot write '{}'", path.string()));
  return Ok{};
}

}  // namespace

int run_report(ReportArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), args.json, console.out,
                        console.err);
  };
  auto format = report_format_for(args);
  if (!format) return fail(format.error());
  if (!args.out.empty()) {
    if (auto status = check_output_path(args.out); !status) return fail(status.error());
  }
  std::filesystem::path const store_path =
      args.store.empty() ? default_store_path() : std::filesystem::path(args.store);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(store_path, ec)) {  // opening would create an empty store
    return fail(make_error(
        ErrorCode::not_found,
        fmt::format("--store: no store at '{}' (run `kopt optimize` first)", store_path.string())));
  }
  auto store = Store::open(store_path);
  if (!store) return fail(store.error());
  auto report = build_run_report(*store, RunId(args.run));
  if (!report) return fail(report.error());

  std::string const text =
      *format == ReportFormat::html ? render_run_html(*report) : render_run_markdown(*report);
  if (!args.out.empty()) {
    if (auto status = write_file(args.out, text); !status) return fail(status.error());
  }
  if (args.json) {
    console.out << to_json(*report).dump(2) << '\n';
  } else if (args.out.empty()) {
    console.out << text;
  }
  if (!args.out.empty()) {
    std::string const best =
        report->best ? fmt::format("best {} on the {} tier", format_ratio(report->best->geomean_speedup),
                                   report->best->tier)
                     : std::string("no candidate passed verification");
    (args.json ? console.err : console.out) << fmt::format(
        "wrote {} ({}): run {}, {} evaluations, {}\n", args.out,
        *format == ReportFormat::html ? "html" : "markdown", args.run, report->evaluations.size(), best);
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
