#!/usr/bin/env bash
# group_norm_rows.cu's device code as whole blocks on the host (tests/CMakeLists.txt, HostWarp.GroupNormRows): the
# strategy instantiated by `kopt strategies SUITE_TASK --instantiate` for suites/scientific/group_norm-f32 and
# -bf16, compiled for the host with warp_shim.h (run_block: threads as fibers, shuffles and __syncthreads
# rendezvous of the block) and run by group_norm_check.inc over slabs after a linear layer (HW = 1) and over
# planes (HW > 1), against a double nn.GroupNorm under the task's tolerance.
#   group_norm_test.sh PATH_TO_KOPT CXX
set -euo pipefail
kopt=$1 cxx=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=host_program.sh
source "$here/host_program.sh"
# precision:atol:rtol:configurations (ITEMS,ROWS), the [tolerance] of suites/scientific/group_norm-<precision>.
for form in "f32:$(sed -n 's/^f32 = { atol = \([^,]*\), rtol = \([^ ]*\) }.*/\1:\2/p' "$root/suites/scientific/group_norm-f32/task.toml"):4,1 16,4 8,2" \
            "bf16:$(sed -n 's/^bf16 = { atol = \([^,]*\), rtol = \([^ ]*\) }.*/\1:\2/p' "$root/suites/scientific/group_norm-bf16/task.toml"):8,1"; do
  IFS=: read -r precision atol rtol configs <<< "$form"
  task=group_norm-$precision
  source="$work/$task.cu"
  instantiate "$root/suites/scientific/$task" group_norm_rows "$source"
  for config in $configs; do
    IFS=, read -r items rows <<< "$config"
    program="$work/$task-$items-$rows"
    {
      echo '#include "warp_shim.h"'
      printf '#define ITEMS %s\n#define ROWS %s\n' "$items" "$rows"
      printf '#define VARIANT "%s"\n#define ENTRY group_norm\n' "$task"
      printf '#define TOL_ATOL %s\n#define TOL_RTOL %s\n' "$atol" "$rtol"
      kernel_text "$source"
      echo '#include "group_norm_check.inc"'
    } > "$program.cpp"
    build_and_run "$program" 300
  done
done
exit "$failed"
