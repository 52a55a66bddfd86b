#!/usr/bin/env bash
# Session 2026-12-06b, call 1: conv2d_nchw_bias (GPU tests, task check, bench), BF16 row arg-reductions, stencil3d knobs.
cd "$(dirname "$0")/.."
export KOPT_GPU_STEP_TIMEOUT=330
export KOPT_SUITES_FILTER='conv2d_nchw_bias'
export KOPT_BENCH_ARGS="--filter conv2d_nchw_bias --filter row_argmax-bf16 --filter row_argmin-bf16 --filter stencil3d --budget 24 --time-per-task 28"
OUT=$OUT/call1 scripts/gpu.sh --bin .carry/bin --skip-examples --skip-bench --suites --suite-bench --pack \
  --test-filter 'Foreign/*conv2d_nchw_bias*:Torch/*:*ConvBias*:*conv2d_nchw_bias*' 2>&1 | tail -40
