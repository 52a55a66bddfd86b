#!/usr/bin/env bash
# channel_map_packs.cu's device logic on the CPU (tests/CMakeLists.txt, HostWarp.ChannelMap): the strategy
# instantiated by `kopt strategies SUITE_TASK --instantiate` for suites/scientific/channel_scale_sigmoid-f32 and
# -bf16 (op = sigmoid(v * p)), compiled for the host with warp_shim.h and run thread after thread over a grid of
# blocks by channel_map_check.inc, at two tuning configurations each, against a double reference under the
# task's tolerance.
#   channel_map_test.sh PATH_TO_KOPT CXX
set -euo pipefail
kopt=$1 cxx=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=host_program.sh
source "$here/host_program.sh"
# precision:atol:rtol, the [tolerance] of suites/scientific/channel_scale_sigmoid-<precision>/task.toml.
for form in "f32:1e-6:1e-5" "bf16:1e-5:1e-2"; do
  IFS=: read -r precision atol rtol <<< "$form"
  task=channel_scale_sigmoid-$precision
  source="$work/$task.cu"
  instantiate "$root/suites/scientific/$task" channel_map_packs "$source"
  for config in "128 4 0" "256 16 2"; do
    read -r block items grid <<< "$config"
    program="$work/$task-$block-$items-$grid"
    {
      echo '#include "warp_shim.h"'
      printf '#define BLOCK %s\n#define ITEMS %s\n#define GRID %s\n' "$block" "$items" "$grid"
      printf '#define VARIANT "%s"\n#define ENTRY channel_scale_sigmoid\n' "$task"
      printf '#define REF(v, p) (1.0 / (1.0 + std::exp(-((v) * (p)))))\n'
      printf '#define TOL_ATOL %s\n#define TOL_RTOL %s\n' "$atol" "$rtol"
      kernel_text "$source"
      echo '#include "channel_map_check.inc"'
    } > "$program.cpp"
    build_and_run "$program" 300
  done
done
exit "$failed"
