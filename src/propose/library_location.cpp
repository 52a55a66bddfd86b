// Where the strategy library is: an explicit folder, $KOPT_STRATEGIES, or a strategies/ folder next to or
// above the running executable (a build tree, an install prefix's share/kopt) or in the working directory.
#include "kopt/propose.hpp"
#include "kopt/toolchain.hpp"

namespace kopt {

Result<std::filesystem::path> find_strategy_library(
    std::optional<std::filesystem::path> const& explicit_root) {
  static DataFolder const library{"strategies",
                                  "common/strategy.cuh",
                                  "KOPT_STRATEGIES",
                                  "a strategy library",
                                  "the strategy library was not found",
                                  "pass --strategies DIR or set KOPT_STRATEGIES"};
  return find_data_folder(library, explicit_root);
}

}  // namespace kopt
