// kopt.compile_check/1: a compile-only check as a JSON document (docs/cli.md, "JSON documents").
// Unknown resources (ptxas's -1) are null, as in kopt.eval/1.
#include "kopt/compile_check.hpp"
#include "kopt/insight.hpp"

namespace kopt {
namespace {

using nlohmann::json;

json known(int value) {
  return value >= 0 ? json(value) : json(nullptr);
}

json resources_json(ResourceUsage const& r) {
  return json{{"registers", known(r.registers)},
              {"spill_stores_bytes", known(r.spill_stores_bytes)},
              {"spill_loads_bytes", known(r.spill_loads_bytes)},
              {"static_shared_bytes", known(r.static_shared_bytes)},
              {"stack_bytes", known(r.stack_bytes)}};
}

json occupancy_json(OccupancyEstimate const& o) {
  return json{{"block_threads", o.block_threads},     {"dynamic_shared_bytes", o.dynamic_shared_bytes},
              {"warps_per_block", o.warps_per_block}, {"blocks_per_sm", o.blocks_per_sm},
              {"warps_per_sm", o.warps_per_sm},       {"max_warps_per_sm", o.max_warps_per_sm},
              {"occupancy_pct", o.occupancy_pct},     {"limits", o.limits},
              {"limited_by", o.limited_by},           {"problem", o.problem}};
}

json kernel_json(KernelCheck const& kernel) {
  json launches = json::array();
  for (LaunchGeometryCheck const& launch : kernel.launches) {
    launches.push_back({{"sizes", launch.sizes},
                        {"occupancy", launch.occupancy ? occupancy_json(*launch.occupancy) : json(nullptr)},
                        {"problem", launch.problem}});
  }
  return json{
      {"name", kernel.name},
      {"aggregate", kernel.aggregate},
      {"resources", resources_json(kernel.resources)},
      {"launches", std::move(launches)},
      {"register_bound_occupancy_pct",
       kernel.register_bound_occupancy_pct ? json(*kernel.register_bound_occupancy_pct) : json(nullptr)}};
}

json entry_json(CompileCheckEntry const& entry) {
  json kernels = json::array();
  for (KernelCheck const& kernel : entry.kernels) kernels.push_back(kernel_json(kernel));
  json findings = json::array();
  for (Finding const& finding : entry.findings) findings.push_back(to_json(finding));
  return json{{"role", entry.role},
              {"name", entry.name},
              {"path", entry.path.string()},
              {"mode", std::string(to_string(entry.mode))},
              {"status", std::string(to_string(entry.status))},
              {"message", entry.message},
              {"diagnostics", entry.diagnostics},
              {"arch", entry.arch},
              {"cache_hit", entry.cache_hit},
              {"compile_ms", entry.compile_ms},
              {"kernels", std::move(kernels)},
              {"findings", std::move(findings)},
              {"notes", entry.notes}};
}

json entries_json(std::vector<CompileCheckEntry> const& entries) {
  json out = json::array();
  for (CompileCheckEntry const& entry : entries) out.push_back(entry_json(entry));
  return out;
}

}  // namespace

json to_json(CompileCheckReport const& report) {
  return json{{"schema", std::string(kCompileCheckSchema)},
              {"task", report.task},
              {"task_dir", report.task_dir.string()},
              {"arch", report.arch},
              {"arch_source", report.arch_source},
              {"toolkit", report.toolkit},
              {"checked", report.checked},
              {"not_checked", report.not_checked},
              {"trusted", entries_json(report.trusted)},
              {"candidates", entries_json(report.candidates)},
              {"wall_ms", report.wall_ms}};
}

}  // namespace kopt
