#!/usr/bin/env bash
# Session 2026-12-06b, call 3: PyTorch problems imported on the CPU host (.carry/tt), benched here; FP32 then BF16.
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export KOPT_WORKER=$PWD/.carry/bin/kopt-worker KOPT_SOURCE_DIR=$PWD
K=.carry/bin/kopt; O=$OUT/call3; mkdir -p $O; start=$(date +%s)
run() {  # precision, problems...
  local prec=$1; shift
  local left=$(( 440 - ($(date +%s) - start) )); [ $left -lt 20 ] && return
  mkdir -p $O/$prec; cp -r .carry/tt/$prec/tasks $O/$prec/; find $O/$prec/tasks -type f -exec touch {} +
  timeout $left $K bench "$@" --torch --precision $prec --budget 2 --time-per-task 5 \
    --store $O/$prec/torch-bench.db --out $O/$prec > $O/$prec/bench.txt 2> $O/$prec/bench.log
  echo "$prec exit $? at $(( $(date +%s) - start )) s"; grep -E '^Problems' $O/$prec/bench.txt
}
run fp32 suites/pytorch/level1/{embedding,rms_norm,transpose_copy,matmul_transposed_b}.py
run bf16 suites/pytorch/level1/{layer_norm,rms_norm,embedding,leaky_where}.py
rm -rf $O/*/tasks; tar czf $OUT/call3.tar.gz -C $OUT call3 && rm -rf $O
