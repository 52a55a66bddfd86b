// SearchTimeAccount: where a search's wall time went (docs/optimize.md, "Where the time goes").
#include "kopt/search_time_account.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kopt/units.hpp"

namespace kopt {

void SearchTimeAccount::add(PhaseTimes const& phases) noexcept {
  ++evaluations;
  compile_cpu_ms += phases.compile_ms;
  compile_wait_ms += phases.compile_wait_ms;
  worker_ms += phases.worker_ms;
  load_ms += phases.load_ms;
  verify_ms += phases.verify_ms;
  time_ms += phases.time_ms;
  activity_ms += phases.activity_ms;
  trusted_build_ms += phases.trusted_build_ms;
  reference_ms += phases.reference_ms;
}

namespace {

// What the search spent outside the evaluator's waits: proposing, materialising, the store.
double kopt_ms(SearchTimeAccount const& account, double search_seconds) {
  return std::max(0.0, search_seconds * 1000.0 - account.compile_wait_ms - account.worker_ms -
                           account.trusted_build_ms - account.reference_ms);
}

}  // namespace

nlohmann::json search_time_to_json(SearchTimeAccount const& account, double search_seconds) {
  auto per_evaluation = [&](double ms) {
    return account.evaluations > 0 ? nlohmann::json(ms / static_cast<double>(account.evaluations))
                                   : nlohmann::json(nullptr);
  };
  return {{"evaluations", account.evaluations},
          {"search_ms", search_seconds * 1000.0},
          {"compile_cpu_ms", account.compile_cpu_ms},
          {"compile_wait_ms", account.compile_wait_ms},
          {"worker_ms", account.worker_ms},
          {"load_ms", account.load_ms},
          {"verify_ms", account.verify_ms},
          {"time_ms", account.time_ms},
          {"activity_ms", account.activity_ms},
          {"trusted_build_ms", account.trusted_build_ms},
          {"reference_ms", account.reference_ms},
          {"first_result_ms", account.first_result_ms},
          {"setup_ms", account.setup_ms},
          {"kopt_ms", kopt_ms(account, search_seconds)},
          {"worker_ms_per_evaluation", per_evaluation(account.worker_ms)}};
}

std::string search_time_line(SearchTimeAccount const& account, double search_seconds) {
  if (account.evaluations == 0) return "";
  std::string line = fmt::format(
      "search {}: worker {} ({} per evaluation: load {}, verify {}, time {}), waiting for compiles {}, ",
      format_duration_ms(search_seconds * 1000.0), format_duration_ms(account.worker_ms),
      format_duration_ms(account.worker_ms / static_cast<double>(account.evaluations)),
      format_duration_ms(account.load_ms), format_duration_ms(account.verify_ms),
      format_duration_ms(account.time_ms), format_duration_ms(account.compile_wait_ms));
  if (account.trusted_build_ms > 0.0)
    line += fmt::format("building the reference {}, ", format_duration_ms(account.trusted_build_ms));
  if (account.reference_ms > 0.0)
    line += fmt::format("the PyTorch reference {}, ", format_duration_ms(account.reference_ms));
  line +=
      fmt::format("kopt {}; first result after {}; compiles took {} of CPU time",
                  format_duration_ms(kopt_ms(account, search_seconds)),
                  format_duration_ms(account.first_result_ms), format_duration_ms(account.compile_cpu_ms));
  if (account.setup_ms > 0.0)
    line += fmt::format("; the reference was built before the search in {}",
                        format_duration_ms(account.setup_ms));
  return line;
}

}  // namespace kopt
