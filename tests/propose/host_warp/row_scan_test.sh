#!/usr/bin/env bash
# The row scan variants' device logic on the CPU (tests/CMakeLists.txt, HostWarp.RowScanVariants): each of
# row_scan_warp_per_row.cu's five forms (the row scan and its reverse, product, masked and exclusive switches) instantiated by
# `kopt strategies SUITE_TASK --instantiate`, compiled for the host with warp_shim.h and run on emulated warps
# by row_scan_check.inc, in FP32 and BF16 at two tuning configurations each.
#   row_scan_test.sh PATH_TO_KOPT CXX
set -euo pipefail
kopt=$1 cxx=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=host_program.sh
source "$here/host_program.sh"
for precision in f32 bf16; do
  for form in "row_cumsum:row_scan_warp_per_row" "row_cumsum_reverse:row_scan_reverse_warp_per_row" \
              "row_cumprod:row_cumprod_warp_per_row" "row_cumsum_masked:row_scan_masked_warp_per_row" \
              "row_cumsum_exclusive:row_scan_exclusive_warp_per_row"; do
    task=${form%%:*} strategy=${form##*:}
    source="$work/$task-$precision.cu"
    instantiate "$root/suites/algebra/$task-$precision" "$strategy" "$source"
    for config in "4 128 1" "32 256 4"; do
      read -r lanes block unroll <<< "$config"
      program="$work/$task-$precision-$lanes-$block-$unroll"
      {
        echo '#include "warp_shim.h"'
        printf '#define LANES %s\n#define BLOCK %s\n#define UNROLL %s\n#define HINT 0\n' "$lanes" "$block" "$unroll"
        printf '#define VARIANT "%s-%s"\n#define ENTRY %s\n' "$task" "$precision" "$task"
        kernel_text "$source"
        echo '#include "row_scan_check.inc"'
      } > "$program.cpp"
      build_and_run "$program" 120
    done
  done
done
exit "$failed"
