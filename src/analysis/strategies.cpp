// The strategy catalog: every name in kopt::strategy with a one-sentence description.
#include <array>

#include "kopt/analysis.hpp"

namespace kopt {
namespace {

namespace s = strategy;

constexpr std::array kCatalog{
    StrategyInfo{s::coalesce_global_access,
                 "Make consecutive threads of a warp access consecutive addresses (swap loop order or index "
                 "mapping) so each request touches the fewest 32-byte sectors."},
    StrategyInfo{s::stage_through_shared_memory,
                 "Load tiles with coalesced accesses into shared memory and read them from there in the "
                 "order the computation needs (e.g. a transpose through a shared tile)."},
    StrategyInfo{s::vectorize_global_access,
                 "Use 128-bit loads and stores (float4, int4, __nv_bfloat162 pairs) on aligned data so "
                 "fewer, wider memory instructions move the same bytes."},
    StrategyInfo{s::vectorize_shared_access,
                 "Read shared memory with wider instructions (LDS.64/LDS.128, ldmatrix) to cut the number "
                 "of MIO instructions."},
    StrategyInfo{s::pad_shared_memory,
                 "Pad shared-memory rows (e.g. [32][33]) so threads of a warp fall into different banks."},
    StrategyInfo{s::swizzle_shared_memory,
                 "Permute shared-memory addresses with an XOR swizzle so column accesses hit distinct banks "
                 "without padding."},
    StrategyInfo{s::reduce_register_pressure,
                 "Lower registers per thread (__launch_bounds__, fewer live values, less unrolling) to fit "
                 "more warps per SM or to remove spills."},
    StrategyInfo{s::reduce_shared_memory,
                 "Use less shared memory per block (smaller tiles, fewer stages) so more blocks fit per SM."},
    StrategyInfo{s::tune_block_size,
                 "Change the block size (a multiple of 32) so blocks pack the SM's warp, block and barrier "
                 "limits and the grid forms whole waves."},
    StrategyInfo{s::avoid_local_arrays,
                 "Replace dynamically indexed per-thread arrays with registers (constant indices after "
                 "unrolling) or shared memory, so they do not live in local memory."},
    StrategyInfo{s::reduce_divergence,
                 "Make threads of a warp take the same path: branch-free arithmetic, predication, or "
                 "reorganising data so the condition is uniform per warp."},
    StrategyInfo{s::increase_parallelism,
                 "Launch more blocks: smaller tiles per block, split-K or split the reduction, so every SM "
                 "gets work."},
    StrategyInfo{s::balance_workload,
                 "Even out the work per block and per warp (grid-stride loops, persistent blocks) so warps "
                 "do not idle waiting for stragglers."},
    StrategyInfo{s::use_tensor_cores,
                 "Compute the matrix products with tensor cores (wmma/mma.sync/wgmma or a vendor library) "
                 "where the task's tolerance allows it."},
    StrategyInfo{s::increase_ilp,
                 "Give each thread several independent operations in flight (unroll, multiple accumulators, "
                 "issue loads early) to hide latency."},
    StrategyInfo{s::use_async_copy,
                 "Prefetch the next tile while computing on the current one (cp.async or TMA with a "
                 "multi-stage pipeline)."},
    StrategyInfo{s::reduce_instruction_count,
                 "Do the same work with fewer instructions: strength reduction, fused operations, hoisted "
                 "index math."},
    StrategyInfo{s::reduce_synchronization,
                 "Remove barriers and memory fences that are not needed, or synchronise smaller groups "
                 "(warp-level or cooperative groups)."},
    StrategyInfo{s::use_warp_shuffle,
                 "Exchange values within a warp with __shfl_*_sync instead of shared memory and barriers."},
    StrategyInfo{s::privatize_atomics,
                 "Accumulate per warp or per block first (registers, shared memory) and issue one global "
                 "atomic per group instead of one per thread."},
    StrategyInfo{s::fuse_launches,
                 "Fuse consecutive small kernels into one launch so the intermediate results stay on chip "
                 "and the launch gaps disappear."},
    StrategyInfo{s::use_cuda_graphs,
                 "Capture the sequence of launches in a CUDA graph and replay it to cut per-launch CPU "
                 "overhead."},
};

}  // namespace

std::span<StrategyInfo const> strategy_catalog() noexcept {
  return kCatalog;
}

StrategyInfo const* find_strategy(std::string_view name) noexcept {
  for (StrategyInfo const& info : kCatalog)
    if (info.name == name) return &info;
  return nullptr;
}

}  // namespace kopt
