#!/usr/bin/env bash
# Compiles every CUDA source under examples/ and tests/gpu/ for sm_90 with nvcc, the way kopt builds
# it: launcher-mode files (an extern "C" host launcher) as a shared object, kernel-mode files (device
# code only) with -c. Files whose header says `// expect: compile_error` are skipped: they fail by
# design, some only inside kopt (which appends a signature check to launchers).
# Runs on a machine without a GPU. Usage: scripts/check_sources.sh [-j JOBS]
# Environment: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc).
set -euo pipefail

jobs=2
while [[ $# -gt 0 ]]; do
  case "$1" in
    -j) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "check_sources.sh: unknown argument '$1'; expected -j JOBS" >&2; exit 2 ;;
  esac
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "${NVCC:-}" ]]; then
  NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
fi
if [[ ! -x "$NVCC" ]]; then
  echo "check_sources.sh: nvcc not found (set NVCC or put it on PATH)" >&2
  exit 2
fi
export NVCC

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export work

# Prints "launcher" or "kernel": the `// mode:` header when there is one, else launcher when the
# file defines an extern "C" function that is not __global__.
mode_of() {
  local header
  header="$(sed -n 's#^// mode: *\([a-z]*\).*#\1#p' "$1" | head -n 1)"
  if [[ -n "$header" ]]; then
    echo "$header"
  elif grep -E '^[[:space:]]*extern "C"' "$1" | grep -qv '__global__'; then
    echo launcher
  else
    echo kernel
  fi
}
export -f mode_of

# Compiles one file; writes "<status> <mode> <file>" to a result file, and the log next to it.
check_one() {
  local file="$1" rel mode id out status
  rel="${file#"$ROOT"/}"
  mode="$(mode_of "$file")"
  id="$(printf '%s' "$rel" | tr '/.' '__')"
  if grep -q '^// expect: compile_error' "$file"; then
    echo "skipped $mode $rel" >"$work/$id.result"
    return 0
  fi
  # shellcheck disable=SC2054  # the comma is part of nvcc's -gencode value, not an array separator
  local flags=(-std=c++17 -O3 --default-stream per-thread -gencode=arch=compute_90,code=sm_90)
  if [[ "$mode" == launcher ]]; then
    out=("$NVCC" -shared -Xcompiler -fPIC "${flags[@]}" -o "$work/$id.so" "$file")
  else
    out=("$NVCC" -c "${flags[@]}" -o "$work/$id.o" "$file")
  fi
  if "${out[@]}" >"$work/$id.log" 2>&1; then status=ok; else status=error; fi
  echo "$status $mode $rel" >"$work/$id.result"
}
export -f check_one
export ROOT="$root"

mapfile -t files < <(find "$root/examples" "$root/tests/gpu" -name '*.cu' -type f 2>/dev/null | sort)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "check_sources.sh: no .cu files under examples/ or tests/gpu/" >&2
  exit 1
fi
echo "Compiling ${#files[@]} CUDA sources for sm_90 with $NVCC ($jobs at a time)"
printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$jobs" bash -c 'check_one "$0"'

failures=0
for result in "$work"/*.result; do
  read -r status mode rel <"$result"
  log="${result%.result}.log"
  case "$status" in
    ok) printf '  ok        %-8s %s\n' "$mode" "$rel" ;;
    skipped) printf '  skipped   %-8s %s (its header expects compile_error)\n' "$mode" "$rel" ;;
    *)
      failures=$((failures + 1))
      printf '  FAIL      %-8s %s\n' "$mode" "$rel"
      sed 's/^/            /' "$log" | head -n 20 ;;
  esac
done
if [[ $failures -gt 0 ]]; then
  echo "check_sources.sh: $failures of ${#files[@]} sources failed (listed above)"
  exit 1
fi
echo "check_sources.sh: every source compiles (${#files[@]} checked, compile_error cheats skipped)"
