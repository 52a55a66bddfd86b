#!/usr/bin/env bash
# Session 2026-12-06c, call 2 (one device call, <= 590 s): the corpus problems with a family and no FP32 result on
# a GPU yet, in chunks of 4 (kopt bench --torch, tasks imported on the CPU host), then BF16 chunks until the time is up.
cd "$(dirname "$0")/../../.." || exit 2
start=$(date +%s)
P="suites/pytorch/level1/transpose_copy.py suites/pytorch/level1/matmul_square.py suites/pytorch/level1/matmul_skinny.py
   suites/pytorch/level2/linear_gelu_scale.py suites/pytorch/level2/linear_relu.py suites/pytorch/level1/max_pool2d.py
   suites/pytorch/level1/tanh.py"
KOPT_TORCH_PROBLEMS=$(echo $P) KOPT_TORCH_TASKS=.carry/torch-tasks KOPT_TORCH_CHUNK=4 KOPT_TORCH_PRECISIONS=fp32 \
  KOPT_TORCH_DEADLINE=400 KOPT_BENCH_ARGS="--budget 2 --time-per-task 5" \
  OUT=$OUT/a scripts/gpu.sh --bin .carry/bin --skip-tests --skip-examples --skip-bench --torch-bench --pack 2>&1 | tail -4
echo "part a done at $(( $(date +%s) - start )) s"
P="suites/pytorch/level1/rms_norm.py suites/pytorch/level1/softmax.py suites/pytorch/level1/log_softmax.py
   suites/pytorch/level1/mean_dim.py suites/pytorch/level1/cumsum.py suites/pytorch/level1/gelu.py"
KOPT_TORCH_PROBLEMS=$(echo $P) KOPT_TORCH_TASKS=.carry/torch-tasks KOPT_TORCH_CHUNK=2 KOPT_TORCH_PRECISIONS=bf16 \
  KOPT_TORCH_DEADLINE=$(( 560 - ($(date +%s) - start) - 50 )) KOPT_BENCH_ARGS="--budget 2 --time-per-task 5" \
  OUT=$OUT/b scripts/gpu.sh --bin .carry/bin --skip-tests --skip-examples --skip-bench --torch-bench --pack 2>&1 | tail -4
echo "part b done at $(( $(date +%s) - start )) s"
