#!/usr/bin/env bash
# The sanitizer step of CI (issue #23; docs/fuzzing.md, "In CI"): builds kopt with clang, AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer's coverage in one folder, replays every kept crash and fuzzes
# every harness for a bounded time (scripts/fuzz.sh), then runs the CPU tests of the modules that read
# hostile input under the sanitizers (LeakSanitizer on). Prints the time of each part; exits 1 on any
# finding or failed test, so a crash on hostile input fails a submission.
#
#   scripts/sanitize.sh [--build-dir DIR] [--seconds N] [-j JOBS]
#
# --build-dir DIR  the sanitized build folder (default build-sanitize; configured here when it is not yet)
# --seconds N      fuzzing time per harness (default 6)
# -j JOBS          compile jobs and tests at once (default: the number of CPUs)
# The folder is built at -O0 with line tables (-g1): 40 % less compile time than -O1 on this project's
# 2-core machines (docs/fuzzing.md), and the sanitizers find as much.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir="build-sanitize"
seconds=6
jobs="$(nproc)"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "sanitize.sh: unknown argument '$1'; expected --build-dir DIR, --seconds N or -j JOBS" >&2; exit 2 ;;
  esac
done

# The modules whose tests run here: those that parse what a user, an LLM, a profiler or another process
# hands kopt. The others read kopt's own data structures (docs/fuzzing.md says which and why).
modules=(task inputs compile tuning llm profile store worker propose cli)
# Left out under the sanitizers: the tests whose time is nvcc compiling kopt's own kernels (every library
# strategy on every suite task, every foreign signature's bound strategy, the example tuning spaces): no
# hostile input reaches kopt's code there, and they run in the normal build. Measured 2026-12-03: 14 minutes
# of the step's tests on 2 cores were these. The PyTorch bridge's Python tests (PyTorchBridge.*) run Python,
# not kopt's code, and run in the normal build too; nor do HostWarp.* (HostWarp.RowScanVariants,
# HostWarp.ChannelMap: strategy templates compiled for the host and run on emulated warps or thread after
# thread: no hostile input reaches kopt there either).
exclude='LibraryStrategyOnSuite|BindsWithNoHelpAndCompiles|Tunable\.(Every|Sampled)Configuration|_NOT_BUILT$|PyTorchBridge\.|HostWarp\.'

export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
timings=()
started=$SECONDS
if ! grep -qs '^KOPT_FUZZ:BOOL=ON' "$build_dir/CMakeCache.txt"; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -g1" -DKOPT_FUZZ=ON >/dev/null
fi
targets=(kopt_fuzzers kopt kopt-worker kopt-compile)
for m in "${modules[@]}"; do targets+=("kopt_${m}_tests"); done
cmake --build "$build_dir" --target "${targets[@]}" -j"$jobs"
timings+=("$(printf '%5d s  build (clang, ASan+UBSan, -O0 -g1): libraries, harnesses, %d test programs' \
  $((SECONDS - started)) "${#modules[@]}")")

part=$SECONDS
status=0
scripts/fuzz.sh --build-dir "$build_dir" --no-build --seconds "$seconds" -j "$jobs" || status=1
timings+=("$(printf '%5d s  fuzz: regressions replayed, every harness fuzzed %d s' $((SECONDS - part)) "$seconds")")

part=$SECONDS
# halt_on_error: the first report ends the test program (its test fails); detect_leaks: LeakSanitizer at
# exit. UBSan already stops at the first report (-fno-sanitize-recover).
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1"
# A sanitized kopt starts about ten times slower: the command-line property test tries 3 of its hostile
# values per option here (every value in the normal build).
export KOPT_CLI_PROPERTY_VALUES=3
# Only the programs built above have tests to run: ctest lists the others as <program>_NOT_BUILT.
ctest --test-dir "$build_dir" -L cpu -E "$exclude" -j"$jobs" --output-on-failure --timeout 600 \
  >"$build_dir/sanitized-tests.log" 2>&1 || status=1
tail -n 30 "$build_dir/sanitized-tests.log"
timings+=("$(printf '%5d s  CPU tests of %s under the sanitizers' $((SECONDS - part)) "${modules[*]}")")

echo
echo "==== kopt sanitizers ($(date -u +%Y-%m-%d)) ===="
printf '%s\n' "${timings[@]}"
printf '%5d s  in all\n' $((SECONDS - started))
if [[ $status != 0 ]]; then
  echo "kopt sanitizers: FAILED (fuzz findings above, or failed tests: $build_dir/sanitized-tests.log)" >&2
  exit 1
fi
echo "kopt sanitizers: no finding, every test passed"
