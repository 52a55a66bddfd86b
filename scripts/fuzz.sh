#!/usr/bin/env bash
# Builds kopt's libFuzzer harnesses (fuzz/, docs/fuzzing.md) with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, replays every kept crash (fuzz/regressions/<harness>/), then fuzzes each
# harness for a bounded time on a seed corpus taken from the repository's own files, and prints a table.
# Exits 1 when an input crashed, hung, leaked or tripped a sanitizer (the input is saved and named).
#
#   scripts/fuzz.sh [--seconds N] [--build-dir DIR] [-j JOBS] [--only NAME]... [--no-build] [--list]
#
# --seconds N     fuzzing time per harness (default 20; 0 replays the regressions and the seeds only)
# --build-dir DIR build folder, configured with -DKOPT_FUZZ=ON if it is not yet (default: build-fuzz)
# -j JOBS         compile jobs, and harnesses fuzzed at once (default 2)
# --only NAME     fuzz this harness only (repeatable); names are the files fuzz/<name>.cpp
# --no-build      use the harnesses already built in DIR
# --list          print the harness names and stop
# Findings land in DIR/fuzz-findings/<harness>/ (crash-*, timeout-*, leak-*, oom-*); the corpus grows in
# DIR/fuzz-corpus/<harness>/ across runs. To keep a finding: fix it in src/, then copy the file to
# fuzz/regressions/<harness>/ (ctest replays it as Fuzz.<harness>.regressions).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=20
build_dir="build-fuzz"
jobs=2
build=1
only=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --build-dir) build_dir="$2"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    --no-build) build=0; shift ;;
    --list) for f in fuzz/*.cpp; do basename "$f" .cpp; done; exit 0 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1'; expected --seconds N, --build-dir DIR, -j JOBS, --only NAME, --no-build or --list" >&2
       exit 2 ;;
  esac
done
if ! [[ $seconds =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: --seconds takes a whole number of seconds and -j a positive count" >&2
  exit 2
fi

harnesses=()
for f in fuzz/*.cpp; do
  name="$(basename "$f" .cpp)"
  if [[ ${#only[@]} -eq 0 ]] || printf '%s\n' "${only[@]}" | grep -qx "$name"; then harnesses+=("$name"); fi
done
if [[ ${#harnesses[@]} -eq 0 ]]; then
  echo "fuzz.sh: no harness named ${only[*]}; see scripts/fuzz.sh --list" >&2
  exit 2
fi

export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
if [[ $build == 1 ]]; then
  started=$SECONDS
  if ! grep -qs '^KOPT_FUZZ:BOOL=ON' "$build_dir/CMakeCache.txt"; then
    # -O1 and line tables only: the sanitizers' usual trade between speed and the time to build.
    cmake -S . -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DKOPT_FUZZ=ON >/dev/null
  fi
  targets=()
  for name in "${harnesses[@]}"; do targets+=("kopt_fuzz_$name"); done
  cmake --build "$build_dir" --target "${targets[@]}" -j"$jobs"
  echo "kopt fuzz: harnesses built in $((SECONDS - started)) s"
fi

# ---- seed corpora and dictionaries, from the repository's files (rebuilt each run) -----------------
seeds="$build_dir/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
# seed HARNESS FILE...: copies files into the harness's seed folder (names made unique).
seed() {
  local harness="$1" f
  shift
  mkdir -p "$seeds/$harness"
  for f in "$@"; do
    [[ -f $f ]] && cp "$f" "$seeds/$harness/$(echo "$f" | tr '/' '_')"
  done
  return 0
}
# seed_lines HARNESS: each line of stdin becomes one seed.
seed_lines() {
  local harness="$1" n=0 line
  mkdir -p "$seeds/$harness"
  while IFS= read -r line; do
    n=$((n + 1))
    printf '%s' "$line" >"$seeds/$harness/line-$n"
  done
}
# dictionary HARNESS FILE...: the quoted words of parser sources, as a libFuzzer dictionary.
dictionary() {
  local harness="$1"
  shift
  grep -ohE '"[A-Za-z_][A-Za-z0-9_.:-]{1,30}"' "$@" 2>/dev/null | sort -u >"$seeds/$harness.dict" || true
}
mapfile -t task_files < <(find suites examples tests -name task.toml | sort)
mapfile -t annotated < <(grep -rl 'kopt:' --include='*.cu' suites examples strategies | sort)
seed task "${task_files[@]}"
seed inputs "${task_files[@]}"
dictionary task src/task/*.cpp src/inputs/*.cpp
cp "$seeds/task.dict" "$seeds/inputs.dict"
sed -nE "s/^signature *= *['\"](.*)['\"] *$/\1/p" "${task_files[@]}" | sort -u | seed_lines signature
grep -ohE '^(length|grid|block|shared_bytes|flops|bytes) *= *"[^"]*"' "${task_files[@]}" |
  sed -E 's/^[a-z_]+ *= *"(.*)"$/\1/' | sort -u | seed_lines expr
seed tuning "${annotated[@]}"
seed search_replace prompts/*.md docs/llm.md
seed llm_reply prompts/*.md docs/llm.md
seed prompt_template prompts/*.md
seed ncu_csv tests/profile/fixtures/*.csv
seed sass tests/profile/fixtures/*sass*.txt tests/profile/fixtures/*nvdisasm*.txt
seed ptxas tests/profile/fixtures/*ptxas*.txt
# shellcheck disable=SC2016  # the backticks of docs/worker-protocol.md's table, not a command
sed -nE 's/^\| `([a-z_]+)` \|.*/{"op": "\1", "id": 1, "protocol": 3}/p' docs/worker-protocol.md | seed_lines worker_request
dictionary worker_request src/worker/protocol/*.cpp
printf '%s\n' '{"reply": "hello", "id": 1}' '{"event": "progress", "what": "trial 1"}' \
  '{"reply": "evaluate", "id": 2, "status": "ok"}' | seed_lines worker_reply
cp "$seeds/worker_request.dict" "$seeds/worker_reply.dict"
# docs/compile.md's protocol example: one request, two replies, each folded onto one line.
awk '/^\{"id": 7/ { if (line != "") print line; line = $0; next }
     line != "" && /^ / { line = line $0; next }
     line != "" { print line; line = "" }' docs/compile.md | seed_lines compile_server
dictionary compile_server src/compile/compile_json.cpp
seed bench_json docs/results/*/*/bench.json docs/results/*/*/*/bench.json
dictionary bench_json src/suite_bench/*.cpp
seed strategies strategies/*/strategies.toml
dictionary strategies src/propose/strategy_library.cpp
mkdir -p "$seeds/store_rows"
dictionary store_rows src/store/*.cpp src/common/candidate_status.cpp

# ---- run ----------------------------------------------------------------------------------------------
results="$build_dir/fuzz-results"
rm -rf "$results"
mkdir -p "$results"
# run_one HARNESS: replays the regressions, then fuzzes; writes "runs coverage result" to results/HARNESS.
run_one() {
  local name="$1" bin="$build_dir/fuzz/kopt_fuzz_$1" result=ok runs=0 cov=0 dict=()
  local findings="$build_dir/fuzz-findings/$name/" corpus="$build_dir/fuzz-corpus/$name"
  local log="$results/$name.log"
  mkdir -p "$findings" "$corpus" "$seeds/$name"
  [[ -s "$seeds/$name.dict" ]] && dict=(-dict="$seeds/$name.dict")
  if [[ -d fuzz/regressions/$name ]] && ! "$bin" fuzz/regressions/"$name"/* >"$log.replay" 2>&1; then
    result="REGRESSION (fuzz/regressions/$name; $log.replay)"
  fi
  # A dictionary libFuzzer cannot read is dropped rather than failing the run.
  if [[ ${#dict[@]} -gt 0 ]] && ! "$bin" "${dict[@]}" -runs=0 >/dev/null 2>&1; then dict=(); fi
  # libFuzzer reads -max_total_time=0 as "no limit": 0 seconds runs the corpus once instead.
  local limit=(-max_total_time="$seconds")
  [[ $seconds == 0 ]] && limit=(-runs=0)
  if ! "$bin" "${dict[@]}" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$findings" "$corpus" "$seeds/$name" >"$log" 2>&1; then
    local artifact
    artifact="$(grep -oE "Test unit written to [^ ]+" "$log" | tail -n 1 | sed 's/Test unit written to //' || true)"
    result="CRASH ${artifact:-see $log}"
  fi
  runs="$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)"
  cov="$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || true)"
  echo "${runs:-0} ${cov:-0} $result" >"$results/$name"
}

started=$SECONDS
echo "kopt fuzz: ${#harnesses[@]} harnesses, ${seconds} s each, $jobs at a time"
for name in "${harnesses[@]}"; do
  while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n || true; done
  run_one "$name" &
done
wait

failed=0
total_runs=0
printf '\n%-16s %10s %9s  %s\n' harness runs coverage result
for name in "${harnesses[@]}"; do
  # A harness whose run ended without a result line (it could not start, say) counts as a failure.
  [[ -f "$results/$name" ]] || echo "0 0 ERROR: no result (see $results/$name.log)" >"$results/$name"
  read -r runs cov result <"$results/$name"
  printf '%-16s %10s %9s  %s\n' "$name" "$runs" "$cov" "$result"
  total_runs=$((total_runs + runs))
  [[ $result == ok ]] || failed=1
done
echo
echo "kopt fuzz: $total_runs inputs in $((SECONDS - started)) s; logs in $results/"
if [[ $failed == 1 ]]; then
  echo "kopt fuzz: FAILED: fix the cause in src/, then keep the input in fuzz/regressions/<harness>/" >&2
  exit 1
fi
echo "kopt fuzz: no crash, hang, leak or sanitizer report"
