// `kopt doctor [--json] [--device N]`
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/options.hpp"
#include "kopt/json_values.hpp"
#include "kopt/report.hpp"
#include "kopt/toolchain.hpp"

namespace kopt::cli {
namespace {

bool tool_found(std::vector<ToolStatus> const& tools, std::string_view name) {
  return std::any_of(tools.begin(), tools.end(),
                     [&](ToolStatus const& tool) { return tool.name == name && tool.found; });
}

// What kopt can still do on a machine without a usable GPU, and what it cannot: one line each, so a
// user learns that compiling works (and how to ask for it) instead of only that the GPU is missing.
struct WithoutGpu {
  std::vector<std::string> works;
  std::vector<std::string> needs_toolchain;  // would work here once the missing compiler is installed
  std::vector<std::string> needs_gpu;
};

WithoutGpu without_gpu(std::vector<ToolStatus> const& tools) {
  bool const nvcc = tool_found(tools, "nvcc");
  bool const nvrtc = tool_found(tools, "NVRTC");
  WithoutGpu out;
  // The task's reference and baseline are launchers (nvcc); kernel-mode candidates need NVRTC.
  std::string const eval_compile =
      "kopt eval TASK CAND.cu... --compile-only: compile errors, registers, spills, shared and local memory, "
      "theoretical occupancy and static findings for --arch (default sm_90)";
  std::string const task_compile =
      "kopt task check TASK --compile-only: validate the spec and compile the reference and baseline";
  (nvcc && nvrtc ? out.works : out.needs_toolchain).push_back(eval_compile);
  (nvcc ? out.works : out.needs_toolchain).push_back(task_compile);
  out.works.emplace_back("kopt init, kopt strategies, kopt runs, kopt report, kopt export");
  out.needs_gpu = {"verifying and timing candidates (kopt eval without --compile-only)",
                   "running the reference (kopt task check without --compile-only)",
                   "kopt optimize, kopt bench, kopt generate", "kopt profile, kopt calibrate, kopt energy"};
  return out;
}

std::string render_without_gpu(WithoutGpu const& w) {
  std::string out = "\nwithout a GPU, kopt can still:\n";
  for (auto const& line : w.works) out += "  - " + line + "\n";
  if (!w.needs_toolchain.empty()) {
    out += "once nvcc and NVRTC are found, also:\n";
    for (auto const& line : w.needs_toolchain) out += "  - " + line + "\n";
  }
  out += "these need a GPU:\n";
  for (auto const& line : w.needs_gpu) out += "  - " + line + "\n";
  return out;
}

}  // namespace

int run_doctor(DoctorArgs const& args, Console const& console) {
  DoctorFindings findings;
  findings.tools = probe_toolchain();
  EvalOptions options;
  options.device = args.device;
  options.worker_path = worker_path_from_env(std::getenv("KOPT_WORKER"));
  auto evaluator = Evaluator::create(options);
  if (evaluator) {
    findings.device = (*evaluator)->device();
    auto const calibration = load_calibration((*evaluator)->calibration_file());
    if (calibration) {
      findings.calibration = fmt::format(
          "measured by `kopt calibrate` at {} (used for speed-of-light bounds)", calibration->measured_at);
    } else if (calibration.error().code == ErrorCode::not_found) {
      findings.calibration = "computed from SM count and clock (`kopt calibrate` measures them)";
    } else {
      findings.calibration = "computed from SM count and clock; the cached calibration is unreadable: " +
                             calibration.error().message;
    }
  } else {
    findings.device_error = evaluator.error().message;
  }
  std::optional<WithoutGpu> const limited =
      findings.device ? std::nullopt : std::optional<WithoutGpu>(without_gpu(findings.tools));
  if (args.json) {
    nlohmann::json document = to_json(findings);
    document["without_gpu"] = limited ? nlohmann::json{{"works", limited->works},
                                                       {"needs_toolchain", limited->needs_toolchain},
                                                       {"needs_gpu", limited->needs_gpu}}
                                      : nlohmann::json(nullptr);
    console.out << json_text(document) << '\n';
  } else {
    console.out << render_doctor(findings, RenderOptions{.color = console.color, .verbose = console.verbose});
    if (limited) console.out << render_without_gpu(*limited);
  }
  return to_int(doctor_problems(findings).empty() ? ExitCode::success : ExitCode::environment);
}

}  // namespace kopt::cli
