#!/usr/bin/env bash
# Builds kopt's tests and runs them in parallel: the README's test command.
#
#   scripts/test.sh [--build-dir DIR] [-j N] [--quick] [CTEST_ARGS...]
#
# --quick        skip the tests labelled "slow" (they nvcc-compile every example and suite task)
# -j N           parallel tests (default: the number of cores)
# CTEST_ARGS     passed to ctest, e.g. -R Store -L cpu --rerun-failed
# Tests that need a GPU report "Skipped" on a machine without one (counted in the summary, never as
# passed). Runs scripts/setup.sh first when the build folder has not been configured yet.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir=build
jobs="$(nproc)"
ctest_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir="$2"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    --quick) ctest_args+=(-LE slow); shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) ctest_args+=("$1"); shift ;;
  esac
done
export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
[[ -f "$build_dir/build.ninja" || -f "$build_dir/Makefile" ]] || scripts/setup.sh --build-dir "$build_dir"
started=$SECONDS
cmake --build "$build_dir" --target kopt_tests -j"$jobs"
echo "kopt tests: built in $((SECONDS - started)) s; running with ctest -j$jobs"
started=$SECONDS
status=0
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" "${ctest_args[@]}" || status=$?
echo "kopt tests: ran in $((SECONDS - started)) s"
exit $status
