#include "kopt/store.hpp"

namespace kopt {

std::string_view to_string(RunStatus status) noexcept {
  switch (status) {
    case RunStatus::running: return "running";
    case RunStatus::finished: return "finished";
    case RunStatus::interrupted: return "interrupted";
  }
  return "unknown";
}

std::optional<RunStatus> run_status_from_string(std::string_view text) noexcept {
  for (auto status : {RunStatus::running, RunStatus::finished, RunStatus::interrupted}) {
    if (to_string(status) == text) return status;
  }
  return std::nullopt;
}

}  // namespace kopt
