// `kopt runs [--store PATH] [--json]`
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "kopt/optimize.hpp"
#include "kopt/store.hpp"

namespace kopt::cli {

int run_runs(RunsArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), args.json, console.out,
                        console.err);
  };
  auto store = Store::open(args.store.empty() ? default_store_path() : std::filesystem::path(args.store));
  if (!store) return fail(store.error());
  auto runs = summarise_runs(*store);
  if (!runs) return fail(runs.error());
  if (args.json) {
    console.out << runs_to_json(*runs).dump(2) << '\n';
  } else {
    console.out << render_runs(*runs);
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
