#!/usr/bin/env bash
# The softmax over the middle dimension on the CPU (tests/CMakeLists.txt, HostWarp.MidSoftmax):
# mid_softmax_online (the online log-sum-exp of online_lse.cuh) and mid_softmax_strip (log-add-exp as the task's
# `combine`), instantiated by `kopt strategies SUITE_TASK --instantiate` for suites/algebra/mid_softmax-f32 and
# -bf16, compiled for the host with warp_shim.h and run thread after thread by mid_softmax_check.inc at tuning
# configurations that take both paths (KEEP rows in registers, two passes), against a double reference under the
# task's tolerance, with columns of -inf and a NaN.
#   mid_softmax_test.sh PATH_TO_KOPT CXX
set -euo pipefail
kopt=$1 cxx=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=host_program.sh
source "$here/host_program.sh"
# precision:strategy:atol:rtol:configurations (BLOCK,KEEP,UNROLL), the [tolerance] of
# suites/algebra/mid_softmax-<precision>/task.toml.
for form in "f32:mid_softmax_online:1e-6:1e-5:128,32,4 64,0,2 64,64,8" \
            "bf16:mid_softmax_online:1e-5:1e-2:128,16,4" \
            "f32:mid_softmax_strip:1e-6:1e-5:64,16,2"; do
  IFS=: read -r precision strategy atol rtol configs <<< "$form"
  task=mid_softmax-$precision
  source="$work/$task-$strategy.cu"
  instantiate "$root/suites/algebra/$task" "$strategy" "$source"
  for config in $configs; do
    IFS=, read -r block keep unroll <<< "$config"
    program="$work/$task-$strategy-$block-$keep-$unroll"
    {
      echo '#include "warp_shim.h"'
      printf '#define BLOCK %s\n#define KEEP %s\n#define UNROLL %s\n' "$block" "$keep" "$unroll"
      printf '#define VARIANT "%s %s"\n#define ENTRY mid_softmax\n' "$task" "$strategy"
      printf '#define TOL_ATOL %s\n#define TOL_RTOL %s\n' "$atol" "$rtol"
      kernel_text "$source"
      echo '#include "mid_softmax_check.inc"'
    } > "$program.cpp"
    build_and_run "$program" 300
  done
done
exit "$failed"
