#!/usr/bin/env bash
# Style and static checks for kopt's C++ sources.
#   clang-format --dry-run --Werror on every *.cpp / *.hpp under src/, include/ and tests/ (.cu
#   sources are candidates and examples, formatted by hand);
#   clang-tidy (.clang-tidy in the repository root) on src/**/*.cpp, using
#   <build dir>/compile_commands.json when it exists, skipped with a message otherwise.
# Usage: scripts/lint.sh [--fix] [--build-dir DIR] [-j JOBS]
#   --fix        rewrite the files with clang-format instead of only checking them
#   --build-dir  where compile_commands.json is (default: build)
# Environment: CLANG_FORMAT, CLANG_TIDY (default: clang-format, clang-tidy on PATH).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fix=0
build_dir="$root/build"
jobs=2
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fix) fix=1; shift ;;
    --build-dir) build_dir="$(cd "$2" && pwd)"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "lint.sh: unknown argument '$1'; expected --fix, --build-dir DIR or -j JOBS" >&2; exit 2 ;;
  esac
done
clang_format="${CLANG_FORMAT:-clang-format}"
clang_tidy="${CLANG_TIDY:-clang-tidy}"
cd "$root"

failed=()

# --- clang-format ---------------------------------------------------------------------------------
if ! command -v "$clang_format" >/dev/null; then
  echo "lint.sh: $clang_format not found" >&2
  exit 2
fi
mapfile -t format_files < <(find src include tests -type f \( -name '*.cpp' -o -name '*.hpp' \) | sort)
if [[ $fix -eq 1 ]]; then
  echo "clang-format: rewriting ${#format_files[@]} files"
  "$clang_format" -i "${format_files[@]}"
else
  echo "clang-format: checking ${#format_files[@]} files ($("$clang_format" --version | head -n 1))"
  if ! "$clang_format" --dry-run --Werror "${format_files[@]}"; then
    failed+=("clang-format (run scripts/lint.sh --fix)")
  fi
fi

# --- clang-tidy -----------------------------------------------------------------------------------
if [[ ! -f "$build_dir/compile_commands.json" ]]; then
  echo "clang-tidy: skipped, no $build_dir/compile_commands.json (configure with cmake first)"
elif ! command -v "$clang_tidy" >/dev/null; then
  echo "clang-tidy: skipped, $clang_tidy not found"
else
  mapfile -t tidy_files < <(find src -type f -name '*.cpp' | sort)
  # Only files the build knows: a source added after the last configure has no compile command.
  known=()
  for f in "${tidy_files[@]}"; do
    if grep -qF "\"$root/$f\"" "$build_dir/compile_commands.json"; then known+=("$f"); else
      echo "clang-tidy: $f is not in compile_commands.json (re-run cmake); not checked"
    fi
  done
  echo "clang-tidy: checking ${#known[@]} files with $build_dir/compile_commands.json ($jobs at a time)"
  # One clang-tidy per file; its "N warnings generated." chatter (system headers) is dropped.
  tidy_one='out="$("$0" -p "$1" --quiet "$2" 2>&1)"; rc=$?
    grep -vE "^[0-9]+ warnings? generated\.$|^$" <<<"$out" || true; exit $rc'
  if [[ ${#known[@]} -gt 0 ]] &&
    ! printf '%s\0' "${known[@]}" | xargs -0 -n 1 -P "$jobs" bash -c "$tidy_one" "$clang_tidy" "$build_dir"; then
    failed+=("clang-tidy")
  fi
fi

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "lint.sh: FAILED: ${failed[*]}"
  exit 1
fi
echo "lint.sh: all checks passed"
