// Nsight Compute metric names (Hopper, ncu 2025.3) read by the classifier and the tools. Every name was
// seen in gh100 `--query-metrics` or a `--set full` raw page (shared/notes/profiling.md §2); an
// uncollectable name makes `ncu --metrics` fail, so add names here only after checking them.
#pragma once

#include <string_view>

namespace kopt::metric {

// Speed of light (stage 1)
inline constexpr std::string_view sm_throughput = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view memory_throughput =
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view dram_throughput = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view l2_throughput = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view l1_throughput = "l1tex__throughput.avg.pct_of_peak_sustained_active";
inline constexpr std::string_view duration_ns = "gpu__time_duration.sum";
inline constexpr std::string_view dram_bytes_read = "dram__bytes_read.sum";
inline constexpr std::string_view dram_bytes_write = "dram__bytes_write.sum";

// Launch (stage 1)
inline constexpr std::string_view waves_per_sm = "launch__waves_per_multiprocessor";
inline constexpr std::string_view grid_size = "launch__grid_size";
inline constexpr std::string_view block_size = "launch__block_size";
inline constexpr std::string_view sm_count = "launch__sm_count";
inline constexpr std::string_view registers_per_thread = "launch__registers_per_thread";
inline constexpr std::string_view shared_static = "launch__shared_mem_per_block_static";
inline constexpr std::string_view shared_dynamic = "launch__shared_mem_per_block_dynamic";

// Occupancy (stage 1)
inline constexpr std::string_view achieved_occupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr std::string_view theoretical_occupancy = "sm__maximum_warps_per_active_cycle_pct";
inline constexpr std::string_view limit_registers = "launch__occupancy_limit_registers";
inline constexpr std::string_view limit_shared_mem = "launch__occupancy_limit_shared_mem";
inline constexpr std::string_view limit_blocks = "launch__occupancy_limit_blocks";
inline constexpr std::string_view limit_warps = "launch__occupancy_limit_warps";
inline constexpr std::string_view limit_barriers = "launch__occupancy_limit_barriers";

// Global access pattern
inline constexpr std::string_view global_ld_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr std::string_view global_ld_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr std::string_view global_st_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr std::string_view global_st_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline constexpr std::string_view global_ld_bytes_per_sector =
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio";
inline constexpr std::string_view global_st_bytes_per_sector =
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio";

// Shared memory
inline constexpr std::string_view shared_ld_conflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_st_conflicts =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
inline constexpr std::string_view shared_ld_wavefronts =
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_st_wavefronts =
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr std::string_view shared_ld_instructions = "smsp__sass_inst_executed_op_shared_ld.sum";
inline constexpr std::string_view shared_st_instructions = "smsp__sass_inst_executed_op_shared_st.sum";

// Local memory
// Sectors (32 bytes each); ncu 2025.3 on the H200 collects these, not l1tex__t_bytes_*_local_*.
inline constexpr std::string_view local_ld_sectors = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum";
inline constexpr std::string_view local_st_sectors = "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum";
inline constexpr double kSectorBytes = 32.0;
inline constexpr std::string_view local_ld_instructions = "smsp__sass_inst_executed_op_local_ld.sum";
inline constexpr std::string_view local_st_instructions = "smsp__sass_inst_executed_op_local_st.sum";

// Divergence
// The name ncu 2025.3 collects on the H200 (the smsp__average_... form is not in its raw page).
inline constexpr std::string_view threads_per_instruction =
    "smsp__thread_inst_executed_per_inst_executed.ratio";
inline constexpr std::string_view divergent_branch_targets =
    "smsp__sass_branch_targets_threads_divergent.sum";
inline constexpr std::string_view uniform_branch_targets_pct =
    "smsp__sass_average_branch_targets_threads_uniform.pct";

// Tensor cores and pipes
inline constexpr std::string_view tensor_pipe_active =
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active";
// Share of peak tensor-instruction issue (wgmma / mma.sync); > 0 means tensor cores were used.
inline constexpr std::string_view tensor_gmma_instructions =
    "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active";
inline constexpr std::string_view tensor_hmma_instructions =
    "sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_active";
inline constexpr std::string_view fma_pipe_active =
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active";

// Scheduler and stalls: smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio, compared with
// the average warp latency per issued instruction.
inline constexpr std::string_view issue_active = "smsp__issue_active.avg.per_cycle_active";
inline constexpr std::string_view warp_latency_per_issue = "smsp__average_warp_latency_per_inst_issued.ratio";
inline constexpr std::string_view stall_prefix = "smsp__average_warps_issue_stalled_";
inline constexpr std::string_view stall_suffix = "_per_issue_active.ratio";

// Atomics at the L2 (measured on the H200 with one address hammered by every thread: max 33% vs
// average 0.35% of the slices' atomic-input cycles; bench/analysis_capture).
inline constexpr std::string_view l2_atomic_active_max =
    "lts__d_atomic_input_cycles_active.max.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view l2_atomic_active_avg =
    "lts__d_atomic_input_cycles_active.avg.pct_of_peak_sustained_elapsed";

}  // namespace kopt::metric
