#!/usr/bin/env bash
# Session 2026-12-06c, call 3 (one device call, <= 500 s): the middle-dimension reduction families.
#  a) GPU tests of their foreign signatures; `kopt task check` and `kopt bench` of suites/algebra/mid_*;
#  b) `kopt bench --torch` of the corpus problems they serve (level1/{argmax_dim,max_dim,sum_dim}), FP32.
cd "$(dirname "$0")/../../.." || exit 2
start=$(date +%s)
KOPT_GPU_STEP_TIMEOUT=170 KOPT_SUITES_FILTER='mid_' KOPT_BENCH_ARGS="--filter mid_ --budget 6 --time-per-task 12" \
  OUT=$OUT/a scripts/gpu.sh --bin .carry/bin --skip-examples --skip-bench --suites --suite-bench --pack \
  --test-filter 'Foreign/*mid_*' 2>&1 | tail -7
echo "part a done at $(( $(date +%s) - start )) s"
P="suites/pytorch/level1/argmax_dim.py suites/pytorch/level1/max_dim.py suites/pytorch/level1/sum_dim.py"
KOPT_TORCH_PROBLEMS=$P KOPT_TORCH_TASKS=.carry/torch-tasks KOPT_TORCH_CHUNK=3 KOPT_TORCH_PRECISIONS=fp32 \
  KOPT_TORCH_DEADLINE=$(( 420 - ($(date +%s) - start) )) KOPT_BENCH_ARGS="--budget 2 --time-per-task 5" \
  OUT=$OUT/b scripts/gpu.sh --bin .carry/bin --skip-tests --skip-examples --skip-bench --torch-bench --pack 2>&1 | tail -3
echo "part b done at $(( $(date +%s) - start )) s"
