// Register spills and local memory. Always on (static facts). Triggers: ptxas spill bytes > 0, a stack
// frame (dynamically indexed local arrays live there with 0 spills, profiling.md §6), LDL/STL in the
// SASS, or local-memory bytes measured by ncu (l1tex__t_sectors_pipe_lsu_mem_local_op_*, 32 bytes each).
#include <fmt/format.h>

#include <string>

#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {
namespace register_spills {

// Ours: local traffic at this fraction of the DRAM traffic is a large share of the memory work.
constexpr double kHighLocalShareOfDram = 0.10;
// Ours: this many bytes of spill stores + loads (ptxas) is more than a few registers' worth.
constexpr double kHighSpillBytes = 256.0;

std::optional<Finding> examine(Metrics const& m, StaticFacts const& facts, WorkFacts const& /*work*/) {
  std::optional<double> const spill_stores = known(facts.spill_store_bytes);
  std::optional<double> const spill_loads = known(facts.spill_load_bytes);
  std::optional<double> const spills = sum_known(spill_stores, spill_loads);
  std::optional<double> const stack = known(facts.stack_bytes);
  std::optional<double> const sass_local = sum_known(known(facts.local_loads), known(facts.local_stores));
  std::optional<double> local_bytes =
      sum_known(lookup(m, metric::local_ld_sectors), lookup(m, metric::local_st_sectors));
  if (local_bytes) *local_bytes *= metric::kSectorBytes;
  std::optional<double> const dram_bytes =
      sum_known(lookup(m, metric::dram_bytes_read), lookup(m, metric::dram_bytes_write));

  bool const spilling = spills && *spills > 0.0;
  bool const has_stack = stack && *stack > 0.0;
  bool const has_local_code = sass_local && *sass_local > 0.0;
  bool const has_local_traffic = local_bytes && *local_bytes > 0.0;
  if (!spilling && !has_stack && !has_local_code && !has_local_traffic) return std::nullopt;

  Finding finding;
  finding.tool = "register_spills";
  note(finding.evidence, "static.spill_store_bytes", spill_stores);
  note(finding.evidence, "static.spill_load_bytes", spill_loads);
  note(finding.evidence, "static.stack_bytes", stack);
  note(finding.evidence, "static.registers_per_thread", known(facts.registers_per_thread));
  note(finding.evidence, "static.local_loads", known(facts.local_loads));
  note(finding.evidence, "static.local_stores", known(facts.local_stores));
  note(finding.evidence, "derived.local_bytes", local_bytes);
  note(finding.evidence, metric::local_ld_instructions, lookup(m, metric::local_ld_instructions));
  note(finding.evidence, metric::local_st_instructions, lookup(m, metric::local_st_instructions));
  std::optional<double> const local_share = has_local_traffic ? ratio(local_bytes, dram_bytes) : std::nullopt;
  note(finding.evidence, "derived.local_bytes_per_dram_byte", local_share);

  std::string text;
  if (spilling) {
    finding.severity = *spills >= kHighSpillBytes ? Severity::high : Severity::medium;
    text = fmt::format("ptxas reports {:.0f} bytes of spill stores and {:.0f} bytes of spill loads",
                       spill_stores.value_or(0.0), spill_loads.value_or(0.0));
    if (facts.registers_per_thread)
      text += fmt::format(" at {} registers per thread", *facts.registers_per_thread);
    text += "; spilled values go through local memory (L1, then L2 and DRAM).";
    finding.strategies = {std::string(strategy::reduce_register_pressure)};
  } else {
    finding.severity = Severity::low;
    text = "The kernel uses local memory without register spills";
    if (has_stack) text += fmt::format(" ({:.0f}-byte stack frame)", *stack);
    text += ", typically a per-thread array indexed with run-time values.";
    finding.strategies = {std::string(strategy::avoid_local_arrays)};
  }
  if (has_local_code) text += fmt::format(" The SASS has {:.0f} LDL/STL instructions.", *sass_local);
  if (has_local_traffic) {
    text += fmt::format(" Measured local traffic: {:.0f} bytes", *local_bytes);
    if (local_share) text += fmt::format(" ({:.0f}% of the DRAM bytes)", *local_share * 100.0);
    text += ".";
    if (local_share && *local_share >= kHighLocalShareOfDram) {
      finding.severity = Severity::high;
    } else if (!spilling) {
      finding.severity = Severity::medium;
    }
  }
  if (spilling && has_stack) finding.strategies.emplace_back(strategy::avoid_local_arrays);
  finding.explanation = "Local memory: " + text;
  return finding;
}

}  // namespace register_spills

AnalysisTool make_register_spills_tool() {
  return AnalysisTool{
      .name = "register_spills",
      .description =
          "Register spills and other local-memory use (ptxas, SASS LDL/STL, measured local bytes).",
      .always = true,
      .triggers = {},
      .metrics = {metric::local_ld_sectors, metric::local_st_sectors, metric::local_ld_instructions,
                  metric::local_st_instructions, metric::dram_bytes_read, metric::dram_bytes_write},
      .examine = &register_spills::examine,
  };
}

}  // namespace kopt::analysis
