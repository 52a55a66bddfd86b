#!/usr/bin/env bash
# The transposed convolutions' device code (conv2d_nchw_implicit_gemm.cu's transposed forms, 2-D and 3-D,
# and with a bias) run as whole blocks on the host (tests/CMakeLists.txt, HostWarp.ConvTranspose): each strategy
# instantiated by `kopt strategies SUITE_TASK --instantiate` for its suite task, compiled for the host with
# warp_shim.h (run_block: a block's threads as fibers, __syncthreads their barrier) and run by
# conv_transpose_check.inc at one to three tile configurations over random geometries, against a double reference in the
# scatter form under the task's tolerance.
#   conv_transpose_test.sh PATH_TO_KOPT CXX
set -euo pipefail
kopt=$1 cxx=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=host_program.sh
source "$here/host_program.sh"
# task:strategy:atol:rtol:configurations, the [tolerance] of suites/scientific/<task>/task.toml; a configuration is
# BM,BN,BK,TM,TN (the first the template's defaults; the others with other tile shapes, threads and slices).
two="64,128,16,8,8 32,64,16,4,4"
for form in "conv_transpose2d_nchw-f32:conv_transpose2d_nchw_implicit_gemm:1e-5:1e-4:$two" \
            "conv_transpose2d_nchw-bf16:conv_transpose2d_nchw_implicit_gemm:2e-3:1e-2:32,64,16,4,4" \
            "conv_transpose2d_nchw_bias_relu-f32:conv_transpose2d_nchw_bias_implicit_gemm:1e-5:1e-4:128,64,8,8,4" \
            "conv_transpose3d_ncdhw-f32:conv_transpose3d_ncdhw_implicit_gemm:1e-5:1e-4:$two"; do
  IFS=: read -r task strategy atol rtol configs <<< "$form"
  source="$work/$task.cu"
  instantiate "$root/suites/scientific/$task" "$strategy" "$source"
  entry=$(grep -m1 -oE 'kernel=[A-Za-z0-9_]+' "$source" | cut -d= -f2)
  for config in $configs; do
    IFS=, read -r bm bn bk tm tn <<< "$config"
    program="$work/$task-$bm-$bn-$bk-$tm-$tn"
    {
      echo '#include "warp_shim.h"'
      printf '#define BM %s\n#define BN %s\n#define BK %s\n#define TM %s\n#define TN %s\n' "$bm" "$bn" "$bk" "$tm" "$tn"
      printf '#define VARIANT "%s"\n#define ENTRY %s\n' "$task" "$entry"
      printf '#define TOL_ATOL %s\n#define TOL_RTOL %s\n' "$atol" "$rtol"
      kernel_text "$source"
      echo '#include "conv_transpose_check.inc"'
    } > "$program.cpp"
    build_and_run "$program" 300
  done
done
exit "$failed"
