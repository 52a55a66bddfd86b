#!/usr/bin/env bash
# row_logsumexp_online.cu's device logic on emulated warps (tests/CMakeLists.txt, HostWarp.RowLogSumExp): the
# strategy instantiated by `kopt strategies SUITE_TASK --instantiate` for suites/llm/row_logsumexp-f32 and -bf16,
# compiled for the host with warp_shim.h and run by logsumexp_check.inc at configurations of one warp or part of
# one per row (the merge across a group's warps needs a barrier, which the shim does not emulate), against a
# double reference under the task's tolerance.
#   logsumexp_test.sh PATH_TO_KOPT CXX
set -euo pipefail
kopt=$1 cxx=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=host_program.sh
source "$here/host_program.sh"
# precision:atol:rtol, the [tolerance] of suites/llm/row_logsumexp-<precision>/task.toml.
for form in "f32:1e-6:2e-5" "bf16:1e-5:1e-2"; do
  IFS=: read -r precision atol rtol <<< "$form"
  task=row_logsumexp-$precision
  source="$work/$task.cu"
  instantiate "$root/suites/llm/$task" row_logsumexp_online "$source"
  for config in "8 128 1" "32 256 2" "16 64 4"; do
    read -r group block unroll <<< "$config"
    program="$work/$task-$group-$block-$unroll"
    {
      echo '#include "warp_shim.h"'
      printf '#define GROUP %s\n#define BLOCK %s\n#define UNROLL %s\n#define HINT 0\n' "$group" "$block" "$unroll"
      printf '#define VARIANT "%s"\n#define ENTRY row_logsumexp\n' "$task"
      printf '#define TOL_ATOL %s\n#define TOL_RTOL %s\n' "$atol" "$rtol"
      kernel_text "$source"
      echo '#include "logsumexp_check.inc"'
    } > "$program.cpp"
    build_and_run "$program" 300
  done
done
exit "$failed"
