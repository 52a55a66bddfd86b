// `kopt runs [--store PATH] [--json]`: reads the store, creates nothing.
#include <ostream>

#include "cli/command_store.hpp"
#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "kopt/json_values.hpp"
#include "kopt/run_report.hpp"
#include "kopt/runs.hpp"
#include "kopt/store.hpp"

namespace kopt::cli {

int run_runs(RunsArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), args.json, console.out,
                        console.err);
  };
  auto store = open_store_to_read(args.store);
  if (!store) return fail(store.error());
  auto listing = list_runs_and_sessions(*store);
  if (!listing) return fail(listing.error());
  if (args.json) {
    console.out << json_text(runs_to_json(*listing)) << '\n';
  } else {
    console.out << render_runs(*listing);
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
