// `kopt farm status`: what the evaluation farm's queue holds (docs/distributed.md).
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/exit_code.hpp"
#include "cli/farm_endpoint.hpp"
#include "kopt/farm.hpp"
#include "kopt/report.hpp"

namespace kopt::cli {

int run_farm_status(FarmStatusArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ExitCode code) {
    return report_error(error, code, args.json, console.out, console.err);
  };
  auto located = farm_queue(args.farm);
  if (!located) return fail(located.error(), ExitCode::usage);
  auto const& [endpoint, names] = *located;
  auto stats = farm::farm_stats(endpoint, names);  // every lane (GPU model) of the farm
  if (!stats) return fail(stats.error(), ExitCode::environment);
  std::string const where = endpoint.describe() + " (prefix " + names.prefix + ", group " + names.group + ")";
  if (args.json) {
    console.out << farm_status_json(*stats, endpoint.describe()).dump(2) << '\n';
  } else {
    console.out << render_farm_status(*stats, where);
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
