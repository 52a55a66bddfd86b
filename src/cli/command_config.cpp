// `kopt config`: prints the configuration resolved at start-up (config_files.hpp).
#include <ostream>

#include "cli/commands.hpp"
#include "cli/config_arguments.hpp"
#include "cli/config_report.hpp"
#include "cli/exit_code.hpp"
#include "kopt/json_values.hpp"

namespace kopt::cli {

int run_config(ConfigArgs const& args, Configuration const& configuration, Console const& console) {
  if (args.json) {
    console.out << json_text(configuration_to_json(configuration)) << "\n";
  } else {
    console.out << render_configuration(configuration);
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
