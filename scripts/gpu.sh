#!/usr/bin/env bash
# The one script for a GPU host: runs kopt's GPU tests, evaluates the examples with the full timing
# protocol, measures evaluation throughput, and prints a short table at the end. Full logs and JSON
# go to $OUT (or ./gpu-out).
#
#   scripts/gpu.sh [--bin DIR] [--skip-tests] [--skip-examples] [--skip-bench] [--spaces] [--kernel-tuner] [--suites]
#                  [--suite-bench] [--generate] [--llm-optimize] [--gpu-scaling] [--pack] [--test-filter PATTERN]
#
# --spaces: exhaustive `kopt optimize` of every examples/*/tunable/*_kernel.cu into $OUT/spaces.db
#   (the input of kopt-bench-replay, the strategy ablation; KOPT_SPACES="a b" limits it to those tasks);
# --kernel-tuner: bench/kernel_tuner/compare.py (extra arguments in KOPT_KT_ARGS).
# --suites: `kopt task check` of every suites/**/task.toml (reference and vendor baseline on every size case; only the
#   paths matching the extended regular expression KOPT_SUITES_FILTER when it is set);
#   a Markdown table in $OUT/suites/table.md.
# --suite-bench: `kopt calibrate`, then `kopt bench suites/ $KOPT_BENCH_ARGS --out $OUT/suite-bench` (the built-in
#   proposer on every task; e.g. KOPT_BENCH_ARGS="--filter llm/ --budget 8"); docs/bench.md.
#   KOPT_BENCH_GPUS=N splits the suite into N shards (`--shard i/N`), one per GPU, run at once and merged.
# --torch-bench: `kopt bench $KOPT_TORCH_PROBLEMS $KOPT_BENCH_ARGS` on PyTorch problems (default suites/pytorch;
#   docs/pytorch.md): imported, tuned, timed beside eager and torch.compile, fast_p; then `kopt export --torch` of
#   the first verified run and `python3 model_new.py --check` (the exported ModelNew against the problem's Model).
#   KOPT_TORCH_CHUNK=N: in benches of N problems instead (every *.py under KOPT_TORCH_PROBLEMS), for each precision of
#   KOPT_TORCH_PRECISIONS (default fp32), packed into torch-bench-chunks.tar.gz after each one, none started after
#   KOPT_TORCH_DEADLINE seconds; then one merged table per precision (kopt bench --merge) and no export.
#   KOPT_TORCH_TASKS=DIR: task folders imported beforehand, DIR/<precision> (`kopt bench PROBLEMS --import-only
#   --tasks DIR/fp32` on the CPU machine, carried along): reused, so the GPU host imports nothing.
# --generate: `kopt generate examples/softmax` with the recorded replies of examples/softmax/llm-replay (the
#   replay backend: no model, deterministic), the verified kernel written to $OUT/generate/softmax_generated.cu.
# --llm-optimize: `kopt optimize examples/softmax --from candidates/softmax_warp_kernel.cu --proposer llm` with the
#   recorded planner/coder replies of examples/softmax/llm-replay/optimize.jsonl (replay, deterministic; one
#   deliberately non-matching edit); JSON in $OUT/llm-optimize/llm-optimize.json, store llm.db, report.md.
# --gpu-scaling: the same `kopt optimize` (KOPT_SCALING_TASK, default examples/sgemm with its tunable kernel; random
#   search, KOPT_SCALING_BUDGET configurations, default 64, seed 1, a fresh store each) on GPUs 0..N-1 for N = 1, 2,
#   4, 8 up to the GPUs visible (--gpus), after one run that fills the compile cache (so the runs are GPU-bound),
#   then a table: GPUs, search seconds, configurations per second, its ratio to
#   one GPU, the best configuration and its confirmed speedup (docs/distributed.md, "One host, all its GPUs").
# --watch-cost: the throughput benchmark three times with the system-call watch off (KOPT_WORKER_WATCH=0) and on,
#   alternating, in both modes (docs/benchmarks.md, docs/security.md "Violations are named").
# --test-filter PATTERN: run only the GPU tests gtest's filter selects (e.g. 'Foreign/*' and then '-Foreign/*'):
#   the whole GPU suite takes about 11 minutes on an H200, longer than one call of the device tool allows.
# --test-shards N: run the selected GPU tests as N gtest processes at once (GTEST_TOTAL_SHARDS=N, one worker each,
#   one GPU shared), logs gpu-tests.I.log; for verification-heavy filters such as 'Foreign/*', which spend their time
#   compiling. Tests that time kernels share the GPU then, so run timing tests with the default of 1.
# --pack: at the end, pack everything under $OUT into one $OUT/gpu-out.tar.gz and remove the loose files
#   (a lent GPU machine brings back only a few files per call; one archive always comes back whole).
#
# DIR holds kopt, kopt-worker, kopt-bench-eval and kopt_gpu_tests (default: build/bin and build/tests
# after `cmake --build build --target kopt_tests kopt_benchmarks`; scripts/stage-gpu.sh copies them to .carry/bin for a lent machine).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BIN="" TEST_FILTER="*" TEST_SHARDS=1
RUN_TESTS=1 RUN_EXAMPLES=1 RUN_BENCH=1 RUN_SPACES=0 RUN_KT=0 RUN_SUITES=0 RUN_SUITE_BENCH=0 RUN_TORCH_BENCH=0 RUN_GENERATE=0 RUN_LLM_OPT=0 RUN_WATCH_COST=0 RUN_SCALING=0 PACK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN="$2"; shift 2 ;;
    --skip-tests) RUN_TESTS=0; shift ;;
    --skip-examples) RUN_EXAMPLES=0; shift ;;
    --skip-bench) RUN_BENCH=0; shift ;;
    --spaces) RUN_SPACES=1; shift ;;
    --kernel-tuner) RUN_KT=1; shift ;;
    --suites) RUN_SUITES=1; shift ;;
    --suite-bench) RUN_SUITE_BENCH=1; shift ;;
    --torch-bench) RUN_TORCH_BENCH=1; shift ;;
    --generate) RUN_GENERATE=1; shift ;;
    --llm-optimize) RUN_LLM_OPT=1; shift ;;
    --watch-cost) RUN_WATCH_COST=1; shift ;;
    --gpu-scaling) RUN_SCALING=1; shift ;;
    --pack) PACK=1; shift ;;
    --test-filter) TEST_FILTER="$2"; shift 2 ;;
    --test-shards) TEST_SHARDS="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
OUT_DIR="${OUT:-$PWD/gpu-out}"
mkdir -p "$OUT_DIR"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
# The redis-server scripts/stage-gpu.sh carries for the farm's GPU tests (none is installed there).
if [ -x .carry/redis/bin/redis-server ] && ! command -v redis-server >/dev/null; then
  export PATH="$PWD/.carry/redis/bin:$PATH" LD_LIBRARY_PATH="$PWD/.carry/redis/lib:$LD_LIBRARY_PATH"
fi
if [ -z "$BIN" ]; then BIN=build/bin; fi
find_bin() { for d in "$BIN" build/bin build/tests; do [ -x "$d/$1" ] && { echo "$d/$1"; return; }; done; }
KOPT=$(find_bin kopt); WORKER=$(find_bin kopt-worker); BENCH=$(find_bin kopt-bench-eval); GTESTS=$(find_bin kopt_gpu_tests)
export KOPT_WORKER="$WORKER" KOPT_SOURCE_DIR="$PWD"
summary=()
add() { summary+=("$(printf '%-44s %s' "$1" "$2")"); echo ">> ${summary[-1]}"; }
STEP_TIMEOUT="${KOPT_GPU_STEP_TIMEOUT:-900}"

{
  date -u +"%Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
} | tee "$OUT_DIR/machine.txt"
"$KOPT" doctor > "$OUT_DIR/doctor.txt" 2>&1; add "kopt doctor" "exit $?"

if [ $RUN_BENCH = 1 ] && [ -n "$BENCH" ]; then
  timeout "$STEP_TIMEOUT" "$BENCH" --task examples/softmax --candidate examples/softmax/candidates/softmax_warp_kernel.cu --mode kernel \
    --sizes odd,medium --count 40 --json > "$OUT_DIR/bench-kernel.json" 2> "$OUT_DIR/bench-kernel.log"
  add "throughput kernel mode" "$(python3 -c "import json;j=json.load(open('$OUT_DIR/bench-kernel.json'));print(f\"{j['candidates_per_s']:.1f} cand/s; compile {j['mean_compile_ms']:.1f} load {j['mean_load_ms']:.2f} verify {j['mean_verify_ms']:.1f} time {j['mean_time_ms']:.1f} ms; {j['ok']}/{j['count']} ok\")" 2>&1)"
  timeout "$STEP_TIMEOUT" "$BENCH" --task examples/softmax --candidate examples/softmax/candidates/softmax_warp_launcher.cu --mode launcher \
    --sizes odd,medium --count 16 --json > "$OUT_DIR/bench-launcher.json" 2> "$OUT_DIR/bench-launcher.log"
  add "throughput launcher mode" "$(python3 -c "import json;j=json.load(open('$OUT_DIR/bench-launcher.json'));print(f\"{j['candidates_per_s']:.1f} cand/s; compile {j['mean_compile_ms']:.1f} load {j['mean_load_ms']:.2f} verify {j['mean_verify_ms']:.1f} time {j['mean_time_ms']:.1f} ms; {j['ok']}/{j['count']} ok\")" 2>&1)"
  COMPILE_BENCH=$(find_bin kopt-bench-compile)
  if [ -n "$COMPILE_BENCH" ]; then
    timeout "$STEP_TIMEOUT" "$COMPILE_BENCH" --source examples/sgemm/tunable/sgemm_tunable_kernel.cu --entry sgemm \
      --define BM=64 --define BN=128 --define BK=16 --define TM=8 --define TN=4 --define VEC=4 --define PAD=4 \
      --define PREFETCH=1 --count 48 --jobs 1,8,16 > "$OUT_DIR/compile-scaling.txt" 2>&1
    add "NVRTC configs/s threads|processes" "$(awk 'NR>1 {printf "%s jobs %s|%s; ", $1, $3, $4}' "$OUT_DIR/compile-scaling.txt")"
  fi
fi

if [ $RUN_WATCH_COST = 1 ] && [ -n "$BENCH" ]; then
  watch_bench() {  # mode candidate count label
    timeout "$STEP_TIMEOUT" "$BENCH" --task examples/softmax --candidate "examples/softmax/candidates/$2" --mode "$1" \
      --sizes odd,medium --count "$3" --json 2>/dev/null |
      python3 -c "import json,sys;j=json.load(sys.stdin);print(f\"{j['candidates_per_s']:.1f}\")" 2>&1
  }
  for mode in kernel launcher; do
    if [ $mode = kernel ]; then cand=softmax_warp_kernel.cu; n=40; else cand=softmax_warp_launcher.cu; n=16; fi
    off="" on=""
    for _ in 1 2 3; do
      off="$off $(KOPT_WORKER_WATCH=0 watch_bench $mode $cand $n)"
      on="$on $(watch_bench $mode $cand $n)"
    done
    add "watch off|on, $mode mode (cand/s)" "off:$off | on:$on"
  done
fi

if [ $RUN_SCALING = 1 ]; then
  mkdir -p "$OUT_DIR/scaling"
  task="${KOPT_SCALING_TASK:-examples/sgemm}"
  kernel=$(ls "$task"/tunable/*_kernel.cu | head -n 1)
  visible=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
  # A first run on GPU 0 fills the compile cache, so that the measured runs are GPU-bound: every one
  # evaluates the same configurations (same seed), whose builds are then cache hits.
  timeout "$STEP_TIMEOUT" "$KOPT" optimize "$task" --from "$kernel" --search random --seed 1 \
    --budget "${KOPT_SCALING_BUDGET:-64}" --gpus 0 --store "$OUT_DIR/scaling/warm.db" --json \
    > "$OUT_DIR/scaling/warm.json" 2> "$OUT_DIR/scaling/warm.err"
  for n in 1 2 4 8; do
    [ "$n" -le "$visible" ] || break
    list=$(seq -s, 0 $((n - 1)))
    timeout "$STEP_TIMEOUT" "$KOPT" optimize "$task" --from "$kernel" --search random --seed 1 \
      --budget "${KOPT_SCALING_BUDGET:-64}" --gpus "$list" --store "$OUT_DIR/scaling/gpus-$n.db" --json \
      > "$OUT_DIR/scaling/gpus-$n.json" 2> "$OUT_DIR/scaling/gpus-$n.err"
    echo "gpus $n: exit $?"
  done
  python3 - "$OUT_DIR/scaling" <<'PY' | tee "$OUT_DIR/scaling/table.md"
import json, pathlib, sys
rows, base = [], None
for n in (1, 2, 4, 8):
    f = pathlib.Path(sys.argv[1]) / f"gpus-{n}.json"
    if not f.exists():
        continue
    try:
        j = json.loads(f.read_text())
    except Exception as e:
        rows.append(f"| {n} | no result: {e} | | | |"); continue
    rate = j["points"] / j["elapsed_seconds"] if j["elapsed_seconds"] else 0.0
    base = base or rate
    best = j.get("best") or {}
    sp = best.get("confirmed_speedup")
    rows.append(f"| {n} | {j['elapsed_seconds']:.1f} | {rate:.2f} | {rate / base:.2f}x | {best.get('config', '-')} "
                f"{'%.2fx' % sp if sp else '-'} |")
print("| GPUs | search s | configurations/s | vs 1 GPU | best (confirmed speedup) |")
print("|---|---|---|---|---|")
print("\n".join(rows))
PY
  add "gpu scaling ($task)" "$(tail -n +3 "$OUT_DIR/scaling/table.md" | tr '\n' ' ')"
fi

if [ $RUN_EXAMPLES = 1 ]; then
  for t in softmax vector_add sgemm; do
    timeout "$STEP_TIMEOUT" "$KOPT" eval "examples/$t" examples/$t/candidates/*.cu --tier confirm --seed 1 \
      --out "$OUT_DIR/eval-$t.json" > "$OUT_DIR/eval-$t.txt" 2>&1
    rc=$?
    line=$(python3 - "$OUT_DIR/eval-$t.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print("no report:", e); sys.exit()
for c in r["candidates"]:
    parts = [c["name"], c["status"]]
    for s in c["sizes"]:
        if s.get("speedup") is not None:
            v = f' vendor {s["vs_baseline"]:.2f}x' if s.get("vs_baseline") else ""
            parts.append(f'{s["size"]} {s["candidate"]["us"]["median"]:.1f}us {s["speedup"]:.2f}x{v}')
    print(" | ".join(parts))
PY
)
    add "eval $t (exit $rc)" "$line"
    tail -n 30 "$OUT_DIR/eval-$t.txt"
  done
fi

if [ $RUN_EXAMPLES = 1 ]; then
  rm -f "$OUT_DIR/optimize.db"*
  timeout "$STEP_TIMEOUT" "$KOPT" optimize examples/vector_add --from examples/vector_add/tunable/vector_add_tunable_kernel.cu \
    --budget 24 --search mcts --seed 1 --store "$OUT_DIR/optimize.db" --json > "$OUT_DIR/optimize-vector_add.json" 2> "$OUT_DIR/optimize-vector_add.log"
  rc=$?
  add "optimize vector_add (exit $rc)" "$(python3 -c "import json;j=json.load(open('$OUT_DIR/optimize-vector_add.json'));b=j['best'] or {};print(j['points'], 'points', j['evaluated'], 'evaluated in', round(j['elapsed_seconds'],1), 's; best', b.get('config'), 'screen', b.get('screen_speedup'), 'confirmed', b.get('confirmed_status'), b.get('confirmed_speedup'))" 2>&1 | tail -1)"
fi

if [ $RUN_EXAMPLES = 1 ]; then
  "$KOPT" calibrate --json > "$OUT_DIR/calibrate.json" 2>&1
  add "kopt calibrate (exit $?)" "$(python3 -c "import json;j=json.load(open('$OUT_DIR/calibrate.json'));print(f\"DRAM {j['dram_bytes_per_s']/1e12:.2f} TB/s, FP32 {j['fp32_flops_per_s']/1e12:.1f} TFLOP/s, BF16 {j['bf16_tensor_flops_per_s']/1e12:.0f} TFLOP/s\")" 2>&1 | tail -1)"
  timeout "$STEP_TIMEOUT" "$KOPT" energy examples/sgemm examples/sgemm/candidates/sgemm_tiled_kernel.cu --json \
    > "$OUT_DIR/energy-sgemm.json" 2> "$OUT_DIR/energy-sgemm.log"
  add "kopt energy sgemm tiled (exit $?)" "$(python3 -c "import json;j=json.load(open('$OUT_DIR/energy-sgemm.json'));print(f\"cand {j['candidate_energy']['joules_per_call']['median']:.3g} J/call, ref {j['reference_energy']['joules_per_call']['median']:.3g} J/call, ratio {j['ratio']:.3f}\")" 2>&1 | tail -1)"
  timeout "$STEP_TIMEOUT" "$KOPT" profile examples/vector_add tests/gpu/launches/vector_add_split_launcher.cu \
    > "$OUT_DIR/profile-split-launcher.txt" 2>&1
  add "kopt profile 16-launch launcher (exit $?)" "$(grep -E '^bottleneck|^\[' "$OUT_DIR/profile-split-launcher.txt" | tr '\n' ' ')"
  for a in 1 0 1 0; do  # kernel activity (CUPTI) on and off: does it change the timings?
    KOPT_WORKER_KERNEL_ACTIVITY=$a timeout "$STEP_TIMEOUT" "$KOPT" eval examples/vector_add \
      examples/vector_add/candidates/vector_add_float4_launcher.cu tests/gpu/launches/vector_add_split_launcher.cu \
      --seed 3 --out "$OUT_DIR/activity-$a-$RANDOM.json" > /dev/null 2>&1
  done
  add "launcher medians, activity on vs off" "$(python3 - "$OUT_DIR" <<'PY'
import glob, json, sys
rows = {}
for f in sorted(glob.glob(sys.argv[1] + "/activity-*.json")):
    on = f.split("activity-")[1][0]
    for c in json.load(open(f))["candidates"]:
        for s in c["sizes"]:
            if s.get("candidate") and not s.get("verify_only"):
                rows.setdefault((c["name"][:20], s["size"], on), []).append(s["candidate"]["us"]["median"])
print("; ".join(f"{k[0]} {k[1]} {'on' if k[2]=='1' else 'off'} " + "/".join(f"{v:.1f}" for v in vs) + "us" for k, vs in sorted(rows.items())))
PY
)"
fi

if [ $RUN_EXAMPLES = 1 ]; then  # the energy and composite objectives (NVML windows of >= 2 s per candidate)
  for objective in energy composite; do
    timeout "$STEP_TIMEOUT" "$KOPT" optimize examples/softmax --from examples/softmax/tunable/softmax_tunable_kernel.cu \
      --budget 8 --search mcts --seed 1 --objective $objective --store "$OUT_DIR/optimize.db" --json \
      > "$OUT_DIR/optimize-softmax-$objective.json" 2> "$OUT_DIR/optimize-softmax-$objective.log"
    rc=$?
    add "optimize softmax --objective $objective (exit $rc)" "$(python3 -c "import json;j=json.load(open('$OUT_DIR/optimize-softmax-$objective.json'));b=j['best'] or {};print(j['evaluated'], 'evaluated in', round(j['elapsed_seconds'],1), 's; best', b.get('config'), 'score', b.get('screen_score'), 'confirmed', b.get('confirmed_status'), b.get('confirmed_score'), 'speedup', b.get('confirmed_speedup'))" 2>&1 | tail -1)"
  done
fi

if [ $RUN_SPACES = 1 ]; then
  for kernel in examples/*/tunable/*_kernel.cu; do
    t=$(basename "$(dirname "$(dirname "$kernel")")")
    case " ${KOPT_SPACES:-$t} " in *" $t "*) ;; *) continue ;; esac  # KOPT_SPACES="softmax transpose": only those
    timeout "$STEP_TIMEOUT" "$KOPT" optimize "examples/$t" --from "$kernel" --search exhaustive --budget 100000 \
      --no-confirm --no-memory --seed 1 --store "$OUT_DIR/spaces.db" --json > "$OUT_DIR/space-$t.json" 2> "$OUT_DIR/space-$t.log"
    rc=$?
    add "exhaustive $t (exit $rc)" "$(python3 -c "import json;j=json.load(open('$OUT_DIR/space-$t.json'));b=j['best'] or {};print(j['points'], 'configs', j['evaluated'], 'evaluated,', j['learned_invalid'], 'resource failures, in', round(j['elapsed_seconds'],1), 's =', round(j['evaluated']/max(j['elapsed_seconds'],1e-9),1), 'configs/s; best', b.get('config'), round(b.get('screen_speedup') or 0,3))" 2>&1 | tail -1)"
  done
fi

if [ $RUN_KT = 1 ]; then
  timeout "$STEP_TIMEOUT" python3 bench/kernel_tuner/compare.py --kopt "$KOPT" --worker "$WORKER" --wheels .carry/wheels \
    --out "$OUT_DIR/kernel_tuner" ${KOPT_KT_ARGS:-} > "$OUT_DIR/kernel-tuner.log" 2>&1
  rc=$?
  add "Kernel Tuner side by side (exit $rc)" "see kernel-tuner.log"
  tail -n 25 "$OUT_DIR/kernel-tuner.log"
fi

if [ $RUN_SUITES = 1 ]; then
  mkdir -p "$OUT_DIR/suites"; : > "$OUT_DIR/suites/exit.txt"
  # Several checks at once (KOPT_SUITES_JOBS, default 6): nvcc builds of the reference and baseline dominate.
  # Times in the table are therefore indicative only (other checks share the GPU); `kopt bench` times alone.
  check_one() {
    d=$(dirname "$1"); n=$(echo "${d#suites/}" | tr '/' '_')
    timeout 300 "$KOPT" task check "$d" --seed 1 --json > "$OUT_DIR/suites/$n.json" 2> "$OUT_DIR/suites/$n.log"
    echo "$n $?" >> "$OUT_DIR/suites/exit.txt"
  }
  export -f check_one; export KOPT OUT_DIR
  find suites -name task.toml | sort | grep -E "${KOPT_SUITES_FILTER:-.}" | xargs -P "${KOPT_SUITES_JOBS:-6}" -I{} bash -c 'check_one {}'
  sort -o "$OUT_DIR/suites/exit.txt" "$OUT_DIR/suites/exit.txt"
  add "suite task check" "$(python3 - "$OUT_DIR/suites" <<'PY'
import json, os, sys
d = sys.argv[1]
rows, bad = [], []
for line in open(os.path.join(d, "exit.txt")):
    name, rc = line.split()
    try:
        r = json.load(open(os.path.join(d, name + ".json")))
    except Exception:
        bad.append(f"{name} (exit {rc}, no report)"); continue
    timed = [s for s in r["sizes"] if s.get("reference")]
    flags = [s["size"] for s in r["sizes"] if not s["deterministic"]]
    const = [s["size"] for s in r["sizes"] if s["reference_constant"]]
    if rc != "0" or flags or const: bad.append(f"{name} (exit {rc}, nondeterministic {flags}, constant {const})")
    big = timed[-1] if timed else None
    ref = big["reference"]["us"]["median"] if big else None
    base = big["baseline"]["us"]["median"] if big and big.get("baseline") else None
    gbps = big["bytes"] / ref / 1e3 if big and big.get("bytes") and ref else None
    rows.append((name, big["size"] if big else "-", ref, base, gbps, len(r["warnings"])))
with open(os.path.join(d, "table.md"), "w") as f:
    f.write("| task | largest size | reference | baseline | baseline / reference time | reference GB/s | warnings |\n|---|---|---:|---:|---:|---:|---:|\n")
    for n, s, ref, base, gbps, w in rows:
        fmt = lambda v: f"{v:,.1f} us" if v is not None else "-"
        ratio = f"{base / ref:.3f}" if ref and base else "-"
        f.write(f"| {n} | {s} | {fmt(ref)} | {fmt(base)} | {ratio} | {gbps:.0f} |" if gbps else f"| {n} | {s} | {fmt(ref)} | {fmt(base)} | {ratio} | - |")
        f.write(f" {w} |\n")
print(f"{len(rows)} tasks checked, {len(rows) - len(bad)} clean; problems: " + ("; ".join(bad) if bad else "none"))
PY
)"
fi

if [ $RUN_SUITE_BENCH = 1 ]; then
  gpus=${KOPT_BENCH_GPUS:-1}
  if [ "$gpus" -le 1 ]; then
    "$KOPT" calibrate > "$OUT_DIR/calibrate.txt" 2>&1
    # shellcheck disable=SC2086
    timeout "$STEP_TIMEOUT" "$KOPT" bench suites/ ${KOPT_BENCH_ARGS:-} --store "$OUT_DIR/suite-bench.db" \
      --out "$OUT_DIR/suite-bench" > "$OUT_DIR/suite-bench.txt" 2> "$OUT_DIR/suite-bench.log"
    rc=$?
  else
    # One shard of the suite per GPU, all at once, then one table (`kopt bench --merge`).
    for i in $(seq 0 $((gpus - 1))); do
      (
        export CUDA_VISIBLE_DEVICES=$i
        "$KOPT" calibrate > "$OUT_DIR/calibrate-$i.txt" 2>&1
        # shellcheck disable=SC2086
        timeout "$STEP_TIMEOUT" "$KOPT" bench suites/ ${KOPT_BENCH_ARGS:-} --shard "$i/$gpus" \
          --store "$OUT_DIR/suite-bench-$i.db" --out "$OUT_DIR/suite-bench-$i" \
          > "$OUT_DIR/suite-bench-$i.txt" 2> "$OUT_DIR/suite-bench-$i.log"
        echo $? > "$OUT_DIR/suite-bench-$i.rc"
      ) &
    done
    wait
    rc=0
    for i in $(seq 0 $((gpus - 1))); do
      part_rc=$(cat "$OUT_DIR/suite-bench-$i.rc" 2>/dev/null || echo 9)
      [ "$part_rc" -gt "$rc" ] && rc=$part_rc
    done
    "$KOPT" bench --merge "$OUT_DIR"/suite-bench-[0-9]*/bench.json --out "$OUT_DIR/suite-bench" \
      > "$OUT_DIR/suite-bench.txt" 2>> "$OUT_DIR/suite-bench.log"
  fi
  add "suite bench (exit $rc)" "$(grep -E '^Geomean|MISSED|\[met\]' "$OUT_DIR/suite-bench.txt" | tr '\n' ';' | cut -c1-400)"
fi

if [ $RUN_TORCH_BENCH = 1 ]; then
  mkdir -p "$OUT_DIR/torch-bench"
  [ -f "$OUT_DIR/calibrate.txt" ] || "$KOPT" calibrate > "$OUT_DIR/calibrate.txt" 2>&1
  if [ "${KOPT_TORCH_CHUNK:-0}" -gt 0 ]; then
    # The corpus in chunks of KOPT_TORCH_CHUNK problems per precision (KOPT_TORCH_PRECISIONS, default fp32),
    # each its own bench, packed into torch-bench-chunks.tar.gz as soon as it ends (a call cut short still
    # brings back every finished chunk); no chunk starts after KOPT_TORCH_DEADLINE seconds of this script.
    # shellcheck disable=SC2086
    mapfile -t problems < <(find ${KOPT_TORCH_PROBLEMS:-suites/pytorch} -name '*.py' | sort)
    for prec in ${KOPT_TORCH_PRECISIONS:-fp32}; do
      for ((i = 0; i < ${#problems[@]}; i += KOPT_TORCH_CHUNK)); do
        if [ -n "${KOPT_TORCH_DEADLINE:-}" ] && [ "$SECONDS" -ge "$KOPT_TORCH_DEADLINE" ]; then break 2; fi
        d="$OUT_DIR/torch-bench/$prec-$(printf '%03d' "$i")"; mkdir -p "$d"
        left=$STEP_TIMEOUT
        [ -n "${KOPT_TORCH_DEADLINE:-}" ] && left=$((KOPT_TORCH_DEADLINE - SECONDS + 60))
        # shellcheck disable=SC2086
        timeout "$left" "$KOPT" bench "${problems[@]:i:KOPT_TORCH_CHUNK}" --torch --precision "$prec" \
          ${KOPT_TORCH_TASKS:+--tasks "$KOPT_TORCH_TASKS/$prec"} ${KOPT_BENCH_ARGS:-} \
          --store "$d/torch-bench.db" --out "$d" > "$d/bench.txt" 2> "$d/bench.log"
        echo "$prec ${problems[*]:i:KOPT_TORCH_CHUNK}: exit $? at ${SECONDS} s" >> "$OUT_DIR/torch-bench/chunks.txt"
        rm -rf "$d/tasks"
        [ $PACK = 1 ] && tar czf "$OUT_DIR/torch-bench-chunks.tar.gz" -C "$OUT_DIR" torch-bench
      done
    done
    for prec in ${KOPT_TORCH_PRECISIONS:-fp32}; do
      parts=("$OUT_DIR"/torch-bench/"$prec"-*/bench.json)
      [ -f "${parts[0]}" ] || continue
      "$KOPT" bench --merge "${parts[@]}" --out "$OUT_DIR/torch-bench/$prec" > "$OUT_DIR/torch-bench/$prec.txt" 2>&1
      add "PyTorch bench $prec (merged)" "$(grep -E '^Problems|^Geomean' "$OUT_DIR/torch-bench/$prec.txt" | tr '\n' ';' | cut -c1-300)"
    done
  else
  # shellcheck disable=SC2086
  timeout "$STEP_TIMEOUT" "$KOPT" bench ${KOPT_TORCH_PROBLEMS:-suites/pytorch} --torch ${KOPT_BENCH_ARGS:-} \
    --store "$OUT_DIR/torch-bench/torch-bench.db" --out "$OUT_DIR/torch-bench" \
    > "$OUT_DIR/torch-bench/bench.txt" 2> "$OUT_DIR/torch-bench/bench.log"
  rc=$?
  add "PyTorch bench (exit $rc)" "$(grep -E '^fast_|^geomean' "$OUT_DIR/torch-bench/bench.txt" | tr '\n' ';' | cut -c1-300)"
  # The best verified kernel of the first session whose export works (launcher mode), back to PyTorch, checked
  # against the problem's own Model.
  sessions=$("$KOPT" runs --store "$OUT_DIR/torch-bench/torch-bench.db" --json 2>/dev/null | python3 -c "
import json, sys
doc = json.load(sys.stdin)
print(' '.join(str(s['id']) for s in doc.get('sessions', []) if (s.get('best') or {}).get('run')))" 2>/dev/null)
  exported=""
  for session in $sessions; do
    if timeout 300 "$KOPT" export --session "$session" --torch --even-if-slower \
         --store "$OUT_DIR/torch-bench/torch-bench.db" -o "$OUT_DIR/torch-bench/model_new.py" \
         >> "$OUT_DIR/torch-bench/export.txt" 2>&1; then
      exported=$session; break
    fi
  done
  if [ -n "$exported" ]; then
    timeout 600 python3 "$OUT_DIR/torch-bench/model_new.py" --check > "$OUT_DIR/torch-bench/check.txt" 2>&1
    add "export --torch session $exported, --check" "exit $?: $(tail -3 "$OUT_DIR/torch-bench/check.txt" | tr '\n' ';' | cut -c1-300)"
  else
    add "export --torch" "nothing exported (sessions: ${sessions:-none}); see torch-bench/export.txt"
  fi
  fi
fi

if [ $RUN_GENERATE = 1 ]; then
  mkdir -p "$OUT_DIR/generate"
  KOPT_LLM_BACKEND=replay KOPT_LLM_REPLAY_FILE=examples/softmax/llm-replay/generate.jsonl \
    timeout "$STEP_TIMEOUT" "$KOPT" generate examples/softmax \
    --intent "row-wise softmax over C columns, numerically stable" \
    -o "$OUT_DIR/generate/softmax_generated.cu" --store "$OUT_DIR/generate/generate.db" \
    > "$OUT_DIR/generate/generate.txt" 2> "$OUT_DIR/generate/generate.log"
  rc=$?
  add "kopt generate softmax (replayed replies)" \
    "exit $rc; $(grep -E '^(best|confirmed|wrote)' "$OUT_DIR/generate/generate.txt" | tr '\n' ';' | cut -c1-200)"
fi

if [ $RUN_LLM_OPT = 1 ]; then
  mkdir -p "$OUT_DIR/llm-optimize"
  KOPT_LLM_BACKEND=replay KOPT_LLM_REPLAY_FILE=examples/softmax/llm-replay/optimize.jsonl \
    timeout "$STEP_TIMEOUT" "$KOPT" optimize examples/softmax \
    --from examples/softmax/candidates/softmax_warp_kernel.cu --proposer llm --budget 24 --max-calls 7 \
    --store "$OUT_DIR/llm-optimize/llm.db" --json \
    > "$OUT_DIR/llm-optimize/llm-optimize.json" 2> "$OUT_DIR/llm-optimize/llm-optimize.log"
  rc=$?
  run_id=$(grep -m1 '"run"' "$OUT_DIR/llm-optimize/llm-optimize.json" | tr -dc '0-9')
  [ -n "$run_id" ] && "$KOPT" report "$run_id" --store "$OUT_DIR/llm-optimize/llm.db" \
    -o "$OUT_DIR/llm-optimize/report.md" 2>> "$OUT_DIR/llm-optimize/llm-optimize.log"
  add "kopt optimize --proposer llm softmax (replayed)" \
    "exit $rc; $(grep -E '"(stop_reason|screen_speedup|confirmed_status|confirmed_speedup)"' "$OUT_DIR/llm-optimize/llm-optimize.json" | tr -d ' \n' | cut -c1-200)"
fi

if [ $RUN_TESTS = 1 ] && [ -n "$GTESTS" ]; then
  rc=0
  if [ "$TEST_SHARDS" -gt 1 ]; then
    pids=()
    for ((i = 0; i < TEST_SHARDS; i++)); do
      GTEST_TOTAL_SHARDS=$TEST_SHARDS GTEST_SHARD_INDEX=$i timeout "$STEP_TIMEOUT" "$GTESTS" --gtest_filter="$TEST_FILTER" \
        --gtest_output=json:"$OUT_DIR/gpu-tests.$i.json" > "$OUT_DIR/gpu-tests.$i.log" 2>&1 &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || rc=$?; done
    cat "$OUT_DIR"/gpu-tests.*.log > "$OUT_DIR/gpu-tests.log"
  else
    timeout "$STEP_TIMEOUT" "$GTESTS" --gtest_filter="$TEST_FILTER" --gtest_output=json:"$OUT_DIR/gpu-tests.json" > "$OUT_DIR/gpu-tests.log" 2>&1
    rc=$?
  fi
  # A test's result line ends in its time, "(12 ms)"; gtest repeats failed and skipped names without it in
  # the list at the end, which must not count twice.
  passed=$(grep -c '^\[       OK \]' "$OUT_DIR/gpu-tests.log")
  failed=$(grep -cE '^\[  FAILED  \] [A-Za-z].* \([0-9]+ ms\)$' "$OUT_DIR/gpu-tests.log")
  skipped=$(grep -cE '^\[  SKIPPED \] [A-Za-z].* \([0-9]+ ms\)$' "$OUT_DIR/gpu-tests.log")
  add "GPU tests (kopt_gpu_tests, $TEST_SHARDS shards)" "$passed passed, $failed failed, $skipped skipped (exit $rc)"
  grep '^\[  FAILED  \] [A-Za-z]' "$OUT_DIR/gpu-tests.log" | sort -u | head -20
fi

echo
echo "==== kopt on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(date -u +%Y-%m-%d) ===="
printf '%s\n' "${summary[@]}" | tee "$OUT_DIR/summary.txt"

if [ $PACK = 1 ]; then
  archive="$(mktemp -d)/gpu-out.tar.gz"
  tar czf "$archive" -C "$OUT_DIR" . && find "$OUT_DIR" -mindepth 1 -delete && mv "$archive" "$OUT_DIR/"
  echo "packed into $OUT_DIR/gpu-out.tar.gz"
fi
