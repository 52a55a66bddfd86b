// `kopt export RUN_ID -o best.cu [--store PATH]` and `kopt export --session ID -o best.cu`: reads the store,
// creates nothing but the output file.
#include <fmt/format.h>

#include <ostream>

#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "kopt/optimize.hpp"
#include "kopt/report.hpp"
#include "kopt/runs.hpp"
#include "kopt/store.hpp"

namespace kopt::cli {

int run_export(ExportArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), false, console.out,
                        console.err);
  };
  if ((args.run > 0) == (args.session > 0)) {
    return fail(make_error(ErrorCode::invalid_argument, "export: expected a run id or --session ID"));
  }
  if (auto status = check_output_path(args.out); !status) return fail(status.error());
  auto store = open_store_to_read(args.store);
  if (!store) return fail(store.error());
  auto exported = args.session > 0
                      ? export_session_best(*store, SessionId(args.session), args.out, args.even_if_slower)
                      : export_best(*store, RunId(args.run), args.out, args.even_if_slower);
  if (!exported) return fail(exported.error());
  if (exported->reference_kept) {
    console.out << fmt::format(
        "wrote {}: the reference ({}): kopt's best, candidate {} of run {}, is slower than it ({} geomean on "
        "the {} tier); --even-if-slower writes that candidate instead\n",
        args.out, exported->reference.string(), exported->candidate.value(), exported->run.value(),
        format_ratio(exported->geomean_speedup), exported->tier);
    return to_int(ExitCode::success);
  }
  std::string const from =
      args.session > 0 ? fmt::format("session {}, run {}, ", args.session, exported->run.value()) : "";
  console.out << fmt::format("wrote {}: {}candidate {} ({}), {} geomean on the {} tier\n", args.out, from,
                             exported->candidate.value(), exported->knobs.dump(),
                             format_ratio(exported->geomean_speedup), exported->tier);
  if (exported->tier != "confirm")
    console.err << fmt::format(
        "kopt: note: the {} has no confirmed candidate; this one was timed on the screen tier only\n",
        args.session > 0 ? "session" : "run");
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
