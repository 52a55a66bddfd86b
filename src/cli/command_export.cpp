// `kopt export RUN_ID -o best.cu [--store PATH]`
#include <fmt/format.h>

#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "kopt/optimize.hpp"
#include "kopt/report.hpp"
#include "kopt/store.hpp"

namespace kopt::cli {

int run_export(ExportArgs const& args, Console const& console) {
  auto fail = [&](Error const& error) {
    return report_error(error, exit_code_for(error.code, ErrorOrigin::input), false, console.out,
                        console.err);
  };
  if (auto status = check_output_path(args.out); !status) return fail(status.error());
  auto store = Store::open(args.store.empty() ? default_store_path() : std::filesystem::path(args.store));
  if (!store) return fail(store.error());
  auto exported = export_best(*store, RunId(args.run), args.out);
  if (!exported) return fail(exported.error());
  console.out << fmt::format("wrote {}: candidate {} ({}), {} geomean on the {} tier\n", args.out,
                             exported->candidate.value(), exported->knobs.dump(),
                             format_ratio(exported->geomean_speedup), exported->tier);
  if (exported->tier != "confirm")
    console.err
        << "kopt: note: the run has no confirmed candidate; this one was timed on the screen tier only\n";
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
