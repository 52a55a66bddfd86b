// Reports of evaluations, task checks and `kopt doctor`: JSON for programs, aligned plain-text tables for
// people. docs/cli.md shows examples of both.
//
// JSON: every document carries a top-level "schema" ("kopt.eval/1", "kopt.task_check/1", "kopt.doctor/1").
// Enums are strings, unset optionals are null, non-finite numbers are the strings "inf", "-inf", "nan".
// Reading a document back gives an equal value: to_json(from_json(to_json(r))) == to_json(r).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/device.hpp"
#include "kopt/eval.hpp"
#include "kopt/eval_json.hpp"
#include "kopt/farm.hpp"
#include "kopt/result.hpp"
#include "kopt/toolchain.hpp"
#include "kopt/units.hpp"

namespace kopt {

inline constexpr std::string_view kTaskCheckSchema = "kopt.task_check/1";
inline constexpr std::string_view kDoctorSchema = "kopt.doctor/1";
inline constexpr std::string_view kEnergySchema = "kopt.energy/1";
inline constexpr std::string_view kFarmStatusSchema = "kopt.farm_status/1";

// ---- JSON ------------------------------------------------------------------------------------------

// kopt.eval/1 (to_json(EvalReport), eval_report_from_json) is in kopt/eval_json.hpp.
nlohmann::json to_json(TaskCheckReport const& report);
// Errors (invalid_spec) name the field path ("candidates[0].sizes[1].status") and what was expected.
Result<TaskCheckReport> task_check_report_from_json(nlohmann::json const& json);

// `kopt energy` (kopt.energy/1); reading it back gives an equal document, as for kopt.eval/1.
nlohmann::json to_json(EnergyReport const& report);
Result<EnergyReport> energy_report_from_json(nlohmann::json const& json);

// What `kopt doctor` found: host tools, the GPU (when one could be opened) or why not.
struct DoctorFindings {
  std::vector<ToolStatus> tools;
  std::optional<DeviceInfo> device;
  std::optional<std::string> device_error;  // why no GPU could be used
  // Where the peaks come from: "measured <when> ..." (kopt calibrate), "computed from the clock ..." or
  // why the cached calibration could not be read. Unset without a GPU.
  std::optional<std::string> calibration;
};
nlohmann::json to_json(DoctorFindings const& findings);
// What keeps kopt from working, one plain sentence each; empty when ready. Tools other than nvcc, NVRTC
// and the driver (ncu, compute-sanitizer, ...) are optional and never listed.
std::vector<std::string> doctor_problems(DoctorFindings const& findings);

// `kopt farm status` (kopt.farm_status/1): the queue at `where` (its URL without the password) and what it
// holds.
nlohmann::json farm_status_json(farm::QueueStats const& stats, std::string_view where);

// ---- Tables for people -----------------------------------------------------------------------------

struct RenderOptions {
  bool color = false;    // ANSI colours for statuses and verdicts
  bool verbose = false;  // also seeds, CUDA-graph timings, warm-up and resource details
};

std::string render_eval(EvalReport const& report, RenderOptions const& options = {});
std::string render_task_check(TaskCheckReport const& report, RenderOptions const& options = {});
std::string render_doctor(DoctorFindings const& findings, RenderOptions const& options = {});
std::string render_doctor(std::vector<ToolStatus> const& tools, std::optional<DeviceInfo> const& device,
                          std::optional<std::string> const& device_error, RenderOptions const& options = {});

// `kopt energy`'s table (who, J/call, power, clocks, temperature, calls per window) and the ratio.
std::string render_energy(EnergyReport const& report, RenderOptions const& options = {});
std::string render_farm_status(farm::QueueStats const& stats, std::string_view where);
// Joules with a prefix that keeps 3 significant digits, median then [min-max]: "1.23 mJ [1.21-1.25]".
std::string energy_per_call_text(ValueSpread const& joules);

// The one-line verdict for a candidate: "ok: 3.41x geomean over the reference on 2 timed sizes" or
// "REJECTED wrong_output on size 'odd': <message>".
std::string candidate_verdict(CandidateReport const& candidate);

}  // namespace kopt
