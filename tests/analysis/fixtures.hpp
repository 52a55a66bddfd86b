// Metric maps shaped like the H200 measurements in shared/notes/profiling.md §2 (8 test kernels), for
// the classifier and tool tests. Real ncu captures may replace them later.
#pragma once

#include <string>

#include "kopt/analysis.hpp"

namespace kopt::fixtures {

inline std::string stall(std::string const& reason) {
  return "smsp__average_warps_issue_stalled_" + reason + "_per_issue_active.ratio";
}

// Speed of light and launch shape shared by the fixtures.
inline Metrics sol(double sm_pct, double memory_pct, double waves, double grid = 8192.0) {
  return Metrics{
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", sm_pct},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", memory_pct},
      {"launch__waves_per_multiprocessor", waves},
      {"launch__grid_size", grid},
      {"launch__sm_count", 132.0},
      {"launch__block_size", 256.0},
  };
}

// float4 copy of 512 MB: 86% memory SOL (DRAM), 16% SM, 4.15 TB/s, 123.6 us.
inline Metrics float4_copy() {
  Metrics m = sol(16.0, 86.0, 62.06, 65536.0);
  m["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"] = 86.0;
  m["lts__throughput.avg.pct_of_peak_sustained_elapsed"] = 45.0;
  m["l1tex__throughput.avg.pct_of_peak_sustained_active"] = 30.0;
  m["gpu__time_duration.sum"] = 123600.0;
  m["smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"] = 32.0;
  m["smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio"] = 32.0;
  m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 16.0 * 1e6;
  m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = 1e6;
  m["smsp__thread_inst_executed_per_inst_executed.ratio"] = 32.0;
  m["sm__maximum_warps_per_active_cycle_pct"] = 100.0;
  m["sm__warps_active.avg.pct_of_peak_sustained_active"] = 92.0;
  return m;
}

// Stride-33 copy: 32 sectors per request, 4 bytes used per sector; memory-bound on L2/DRAM sectors.
inline Metrics stride33_copy() {
  Metrics m = sol(12.0, 83.0, 62.06, 65536.0);
  m["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"] = 83.0;
  m["lts__throughput.avg.pct_of_peak_sustained_elapsed"] = 70.0;
  m["smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"] = 4.0;
  m["smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio"] = 32.0;
  m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 32.0 * 4e6;
  m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = 4e6;
  m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = 4.0 * 4e6;
  m["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] = 4e6;
  return m;
}

// 32-way bank conflicts: 96% memory SOL on L1, 62.9 M of 65.0 M wavefronts conflicted.
inline Metrics bank_conflicts() {
  Metrics m = sol(40.0, 96.0, 7.76, 4096.0);
  m["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"] = 2.0;
  m["lts__throughput.avg.pct_of_peak_sustained_elapsed"] = 3.0;
  m["l1tex__throughput.avg.pct_of_peak_sustained_active"] = 96.0;
  m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = 62.9e6;
  m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = 65.0e6;
  m["smsp__sass_inst_executed_op_shared_ld.sum"] = 65.0e6 / 32.0;
  m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] = 0.0;
  m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = 2.0e6;
  m["smsp__sass_inst_executed_op_shared_st.sum"] = 2.0e6;
  return m;
}

// FFMA loop: 89% SM, compute-bound; full warps, no stalls worth reporting.
inline Metrics ffma_loop() {
  Metrics m = sol(89.0, 5.0, 7.76, 4096.0);
  m["smsp__thread_inst_executed_per_inst_executed.ratio"] = 32.0;
  m["sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"] = 89.0;
  m["sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active"] = 0.0;
  m["sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_active"] = 0.0;
  return m;
}

// Divergent branch: 16.75 threads per instruction; the SMs are busy with half-empty warps.
inline Metrics divergent() {
  Metrics m = sol(66.0, 8.0, 7.76, 4096.0);
  m["smsp__thread_inst_executed_per_inst_executed.ratio"] = 16.75;
  m["smsp__sass_branch_targets_threads_divergent.sum"] = 1.0e6;
  m["smsp__sass_average_branch_targets_threads_uniform.pct"] = 97.9;
  return m;
}

// One block on 132 SMs.
inline Metrics one_block() {
  Metrics m = sol(0.7, 0.3, 0.004, 1.0);
  m["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"] = 0.3;
  return m;
}

// Latency-bound pointer chasing: low SOL, many waves, long-scoreboard stalls, low issue activity.
inline Metrics latency_bound() {
  Metrics m = sol(22.0, 31.0, 12.0, 12672.0);
  m["smsp__issue_active.avg.per_cycle_active"] = 0.18;
  m["smsp__average_warp_latency_per_inst_issued.ratio"] = 40.0;
  m[stall("long_scoreboard")] = 28.0;
  m[stall("not_selected")] = 0.5;
  m[stall("barrier")] = 1.0;
  m[stall("wait")] = 3.0;
  m["sm__maximum_warps_per_active_cycle_pct"] = 50.0;
  m["sm__warps_active.avg.pct_of_peak_sustained_active"] = 46.0;
  m["launch__occupancy_limit_registers"] = 4.0;
  m["launch__occupancy_limit_shared_mem"] = 8.0;
  m["launch__occupancy_limit_blocks"] = 32.0;
  m["launch__occupancy_limit_warps"] = 8.0;
  m["launch__occupancy_limit_barriers"] = 32.0;
  m["launch__registers_per_thread"] = 128.0;
  return m;
}

}  // namespace kopt::fixtures
