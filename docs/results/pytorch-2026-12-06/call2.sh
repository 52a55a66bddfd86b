#!/usr/bin/env bash
# Session 2026-12-06b, call 2: the PyTorch corpus's problems that get a family, FP32 then BF16 (kopt bench --torch),
# in chunks of 4 problems (each its own bench.json; merged afterwards), until the call's time runs out.
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH" LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export KOPT_WORKER=$PWD/.carry/bin/kopt-worker KOPT_SOURCE_DIR=$PWD
K=.carry/bin/kopt; O=$OUT/call2; mkdir -p $O
start=$(date +%s)
read -r -a P < .carry/problems.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $O/machine.txt
for prec in fp32 bf16; do
  for ((i = 0; i < ${#P[@]}; i += 4)); do
    left=$(( 585 - ($(date +%s) - start) ))
    [ $left -lt 20 ] && break 2
    d=$O/$prec-$i; mkdir -p $d
    timeout $left $K bench "${P[@]:i:4}" --torch --precision $prec --budget 2 --time-per-task 5 \
      --store $d/torch-bench.db --out $d > $d/bench.txt 2> $d/bench.log
    echo "$prec chunk $i exit $? at $(( $(date +%s) - start )) s: $(grep -E '^Problems' $d/bench.txt)"
  done
done
