#!/usr/bin/env bash
# Session 2026-12-06c, call 4 (the session's last ~300 s of device time): four more BF16 corpus problems, in
# chunks of two, none started after 160 s.
cd "$(dirname "$0")/../../.." || exit 2
P="suites/pytorch/level1/rms_norm.py suites/pytorch/level1/softmax.py suites/pytorch/level1/argmax_dim.py
   suites/pytorch/level1/sum_dim.py"
KOPT_TORCH_PROBLEMS=$(echo $P) KOPT_TORCH_TASKS=.carry/torch-tasks KOPT_TORCH_CHUNK=2 KOPT_TORCH_PRECISIONS=bf16 \
  KOPT_TORCH_DEADLINE=160 KOPT_BENCH_ARGS="--budget 2 --time-per-task 5" \
  OUT=$OUT/a scripts/gpu.sh --bin .carry/bin --skip-tests --skip-examples --skip-bench --torch-bench --pack 2>&1 | tail -3
