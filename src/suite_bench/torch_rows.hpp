// The rows of a PyTorch problem's task in `kopt bench --torch`: what the importer's torch_abi.json says
// about the problem, and the flags that keep a doubtful row from being scored (docs/bench.md).
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "kopt/eval.hpp"
#include "kopt/suite_bench.hpp"

namespace kopt::bench_detail {

// What torch_abi.json (kopt.torch_abi/1) records for the bench: the torch version the task was imported
// with and, when the importer found the problem degenerate (its output does not depend on its inputs), why.
// Fields that are absent or not strings are empty; a missing or unreadable file gives both empty.
struct TorchAbiNotes {
  std::string torch;
  std::string degenerate;
};
TorchAbiNotes read_torch_abi_notes(std::filesystem::path const& task_dir);

// Flags and notes on one problem's rows (its timed size cases): "degenerate: <reason>" on every row when
// the importer recorded one; "suspicious: ..." on a verified row more than kSuspiciousSpeedup times as fast
// as eager; a note on a row timed against eager without a torch.compile timing, with `report`'s message
// when it says why.
void finish_torch_rows(std::span<BenchRow> rows, TorchAbiNotes const& notes, CandidateReport const& report);

}  // namespace kopt::bench_detail
