// JSON for `kopt doctor` (schema kopt.doctor/1).
#include "kopt/eval_json.hpp"
#include "kopt/report.hpp"

namespace kopt {

nlohmann::json to_json(DoctorFindings const& findings) {
  nlohmann::json tools = nlohmann::json::array();
  for (auto const& tool : findings.tools) {
    tools.push_back({{"name", tool.name},
                     {"found", tool.found},
                     {"version", tool.version},
                     {"path", tool.path.string()},
                     {"note", tool.note}});
  }
  auto problems = doctor_problems(findings);
  return {
      {"schema", kDoctorSchema},
      {"ready", problems.empty()},
      {"problems", problems},
      {"tools", std::move(tools)},
      {"device", findings.device ? json_doc::encode(*findings.device) : nlohmann::json(nullptr)},
      {"device_error",
       findings.device_error ? nlohmann::json(*findings.device_error) : nlohmann::json(nullptr)},
      {"calibration", findings.calibration ? nlohmann::json(*findings.calibration) : nlohmann::json(nullptr)},
  };
}

}  // namespace kopt
