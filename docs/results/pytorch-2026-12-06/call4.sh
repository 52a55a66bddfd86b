#!/usr/bin/env bash
# Session 2026-12-06c, call 1 (one device call, <= 590 s):
#  a) GPU tests of the row_log_softmax foreign signatures and the Torch/* tests; `kopt task check` and `kopt bench` of
#     suites/llm/row_log_softmax-{f32,bf16}; `kopt bench --torch` of level1/log_softmax (a kernel-mode winner), then
#     `kopt export --torch` of it and the exported ModelNew's `--check` against the problem's Model (issue #21).
#  b) the next corpus chunks (problems without a result yet), FP32, until the call's time runs out.
cd "$(dirname "$0")/../../.." || exit 2
start=$(date +%s)
KOPT_GPU_STEP_TIMEOUT=150 KOPT_SUITES_FILTER='row_log_softmax' \
  KOPT_BENCH_ARGS="--filter log_softmax --budget 8 --time-per-task 20" \
  KOPT_TORCH_PROBLEMS=suites/pytorch/level1/log_softmax.py \
  OUT=$OUT/a scripts/gpu.sh --bin .carry/bin --skip-examples --skip-bench --suites --suite-bench --torch-bench --pack \
  --test-filter 'Foreign/*row_log_softmax*:Torch/*' 2>&1 | tail -25
echo "part a done at $(( $(date +%s) - start )) s"
P="suites/pytorch/level1/rms_norm.py suites/pytorch/level1/transpose_copy.py suites/pytorch/level1/matmul_transposed_b.py
   suites/pytorch/level1/embedding.py suites/pytorch/level2/attention_bmm_softmax.py suites/pytorch/level1/sdpa.py
   suites/pytorch/level1/sdpa_causal.py suites/pytorch/level1/mean_dim.py"
KOPT_TORCH_PROBLEMS=$(echo $P) KOPT_TORCH_TASKS=.carry/torch-tasks KOPT_TORCH_CHUNK=4 KOPT_TORCH_PRECISIONS=fp32 \
  KOPT_TORCH_DEADLINE=$(( 540 - ($(date +%s) - start) - 60 )) KOPT_BENCH_ARGS="--budget 2 --time-per-task 5" \
  OUT=$OUT/b scripts/gpu.sh --bin .carry/bin --skip-tests --skip-examples --skip-bench --torch-bench --pack 2>&1 | tail -8
echo "part b done at $(( $(date +%s) - start )) s"
