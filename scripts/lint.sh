#!/usr/bin/env bash
# Style and static checks for kopt's C++ sources.
#   clang-format --dry-run --Werror on every *.cpp / *.hpp under src/, include/, tests/, bench/ and fuzz/, and
#   every *.cu / *.cuh under src/, tests/, bench/, examples/ and suites/ except tests/gpu/cheats/syntax_error.cu
#   (a deliberate syntax error: its text is the test) and strategies/ (templates with {{placeholders}}, not
#   C++ until instantiated: clang-format would split the braces; formatted by hand);
#   ShellCheck at severity warning on scripts/*.sh and .ci/run (when it is installed);
#   pyflakes on the PyTorch bridge (python/: unused imports, undefined names; when it is installed);
#   scripts/check_banned.sh: no std::regex under src/, include/, fuzz/ and bench/ (RE2 instead);
#   clang-tidy on src/**/*.cpp (.clang-tidy in the repository root: a deny-list) and tests/**/*.cpp
#   (tests/.clang-tidy: the bug-finding core), using <build dir>/compile_commands.json: the sources are
#   read in their unity batches (8 files per translation unit, each header parsed once per batch: about a
#   fifth of the file-by-file time), the tests too (with tests/.clang-tidy given by --config-file, since a
#   batch lives in the build folder). A build that is not a unity build gets a unity configuration in
#   <build dir>/clang-tidy-db (configured only, never built). Skipped with a message when there is no
#   compile_commands.json.
# Usage: scripts/lint.sh [--fix] [--build-dir DIR] [-j JOBS] [--exclude PATH]... [--all]
#   --fix        rewrite the files with clang-format instead of only checking them
#   --build-dir  where compile_commands.json is (default: build)
#   --exclude    skip files under PATH (relative to the repository root); repeatable
#   --all        exclude nothing (clears the default exclusions and KOPT_LINT_EXCLUDE)
# Environment: CLANG_FORMAT, CLANG_TIDY, SHELLCHECK, PYFLAKES (default: clang-format, clang-tidy, shellcheck,
#   pyflakes3 on PATH);
#   KOPT_LINT_EXCLUDE: space-separated paths to skip, default: nothing (modules
#   still being written); set it to "" (or pass --all) to lint everything, as CI eventually must.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fix=0
build_dir="$root/build"
jobs=2
read -r -a excludes <<<"${KOPT_LINT_EXCLUDE-}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fix) fix=1; shift ;;
    --build-dir) build_dir="$(cd "$2" && pwd)"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    --exclude) excludes+=("${2%/}"); shift 2 ;;
    --all) excludes=(); shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "lint.sh: unknown argument '$1'; expected --fix, --build-dir DIR, -j JOBS, --exclude PATH or --all" >&2
       exit 2 ;;
  esac
done
clang_format="${CLANG_FORMAT:-clang-format}"
clang_tidy="${CLANG_TIDY:-clang-tidy}"
cd "$root"

failed=()

# Lists the files under the given roots matching the find name tests, minus the excluded paths.
list_files() {
  local -a roots=() prune=()
  while [[ $1 != -- ]]; do roots+=("$1"); shift; done
  shift
  for e in "${excludes[@]}"; do prune+=(-path "./${e%/}" -prune -o); done
  (cd "$root" && find "${roots[@]/#/./}" "${prune[@]}" -type f \( "$@" \) -print) | sed 's|^\./||' | sort
}
if [[ ${#excludes[@]} -gt 0 ]]; then
  echo "lint.sh: excluding ${excludes[*]} (KOPT_LINT_EXCLUDE / --exclude; --all lints everything)"
fi

# --- clang-format ---------------------------------------------------------------------------------
if ! command -v "$clang_format" >/dev/null; then
  echo "lint.sh: $clang_format not found" >&2
  exit 2
fi
mapfile -t format_files < <(
  list_files src include tests bench fuzz -- -name '*.cpp' -o -name '*.hpp'
  list_files src tests bench examples suites -- -name '*.cu' -o -name '*.cuh' |
    grep -vxF tests/gpu/cheats/syntax_error.cu
)
if [[ $fix -eq 1 ]]; then
  echo "clang-format: rewriting ${#format_files[@]} files"
  "$clang_format" -i "${format_files[@]}"
else
  echo "clang-format: checking ${#format_files[@]} files ($("$clang_format" --version | head -n 1))"
  if ! "$clang_format" --dry-run --Werror "${format_files[@]}"; then
    failed+=("clang-format (run scripts/lint.sh --fix)")
  fi
fi

# --- shellcheck -----------------------------------------------------------------------------------
# The scripts (scripts/*.sh, .ci/run) at severity warning; a disabled check says why on its line.
shellcheck="${SHELLCHECK:-shellcheck}"
if command -v "$shellcheck" >/dev/null; then
  mapfile -t shell_files < <(cd "$root" && ls scripts/*.sh .ci/run)
  echo "shellcheck: checking ${#shell_files[@]} scripts ($("$shellcheck" --version | sed -n 2p))"
  if ! (cd "$root" && "$shellcheck" -S warning "${shell_files[@]}"); then
    failed+=("shellcheck")
  fi
else
  echo "shellcheck: not installed, scripts not checked (apt-get install shellcheck)"
fi

# --- pyflakes -------------------------------------------------------------------------------------
# The PyTorch bridge (python/kopt_torch and its tests) and the Python benchmarks (bench/): names used but never defined, imports never used.
# Debian's python3-pyflakes installs pyflakes3.
pyflakes="${PYFLAKES:-pyflakes3}"
if command -v "$pyflakes" >/dev/null; then
  echo "pyflakes: checking python/ and bench/ ($("$pyflakes" --version))"
  if ! (cd "$root" && "$pyflakes" python bench); then
    failed+=("pyflakes")
  fi
else
  echo "pyflakes: not installed, python/ not checked (apt-get install python3-pyflakes)"
fi

# --- banned constructs ----------------------------------------------------------------------------
# std::regex overflows the stack on long outside text; kopt uses RE2 (scripts/check_banned.sh says why).
if ! "$root/scripts/check_banned.sh"; then
  failed+=("check_banned (std::regex: use RE2)")
fi

# --- clang-tidy -----------------------------------------------------------------------------------
# The sources and the tests are checked through their unity batches (build/{src,tests}/**/Unity/
# unity_N_cxx.cxx, generated by CMake at configure time; diagnostics in the .cpp files they include are
# reported against those files). A batch's configuration is found from its own path, in the build
# folder, so the tests' batches are given tests/.clang-tidy explicitly.
if [[ -f "$build_dir/compile_commands.json" ]] && ! grep -q '/Unity/unity_' "$build_dir/compile_commands.json"; then
  tidy_db="$build_dir/clang-tidy-db"
  cmake -S "$root" -B "$tidy_db" -G Ninja -DKOPT_UNITY_BUILD=ON -DKOPT_USE_CCACHE=OFF >/dev/null
  build_dir="$tidy_db"
fi
if [[ ! -f "$build_dir/compile_commands.json" ]]; then
  echo "clang-tidy: skipped, no $build_dir/compile_commands.json (configure with cmake first)"
elif ! command -v "$clang_tidy" >/dev/null; then
  echo "clang-tidy: skipped, $clang_tidy not found"
else
  commands="$build_dir/compile_commands.json"
  mapfile -t listed < <(grep -o '"file": *"[^"]*"' "$commands" | sed 's/^"file": *"//; s/"$//' | sort -u)
  # Every file must be checked: in a batch, or listed on its own. Prints the files to check, one per line.
  tidy_list() {  # tidy_list <batch regex> <files...>
    local pattern="$1" f
    shift
    mapfile -t batches < <(printf '%s\n' "${listed[@]}" | grep -E "$pattern" || true)
    local covered
    covered="$(cat "${batches[@]}" 2>/dev/null | sed -n 's/^#include "\(.*\)"$/\1/p'; printf '%s\n' "${listed[@]}")"
    printf '%s\n' "${batches[@]}"
    for f in "$@"; do
      if ! grep -qxF "$root/$f" <<<"$covered"; then
        echo "clang-tidy: $f is not in $commands (re-run cmake); not checked" >&2
      elif grep -qxF "$root/$f" < <(printf '%s\n' "${listed[@]}"); then
        echo "$root/$f"
      fi
    done
  }
  mapfile -t sources < <(list_files src -- -name '*.cpp')
  mapfile -t source_files < <(tidy_list '/src/.*/Unity/unity_[0-9]+_cxx\.cxx$' "${sources[@]}")
  # tests/install/consumer is a separate CMake project (it builds against the installed package).
  mapfile -t tests < <(list_files tests -- -name '*.cpp' | grep -v '^tests/install/consumer/')
  mapfile -t test_files < <(tidy_list '/tests/.*/Unity/unity_[0-9]+_cxx\.cxx$' "${tests[@]}")
  echo "clang-tidy: checking ${#sources[@]} sources and ${#tests[@]} tests in ${#source_files[@]} and" \
    "${#test_files[@]} translation units with $commands ($jobs at a time)"
  # One clang-tidy per translation unit; its "N warnings generated." chatter (system
  # headers) is dropped. -Werror whatever the build's KOPT_WARNINGS_AS_ERRORS: clang's own diagnostics
  # (clang-diagnostic-*, e.g. -Wpedantic's C99 compound literals from seccomp.h's macros, which g++
  # accepts) then fail here as they fail in CI, whose build has warnings as errors.
  # The tests' files are prefixed with "tests:" and get tests/.clang-tidy.
  tidy_one='config=(); file="$2"
    if [[ $file == tests:* ]]; then file="${file#tests:}"; config=(--config-file="$3"); fi
    out="$("$0" -p "$1" "${config[@]}" --quiet --extra-arg=-Werror "$file" 2>&1)"; rc=$?
    grep -vE "^[0-9]+ warnings? generated\.$|^$" <<<"$out" || true; exit $rc'
  tidy_files=("${source_files[@]}")
  for f in "${test_files[@]}"; do tidy_files+=("tests:$f"); done
  if [[ ${#tidy_files[@]} -gt 0 ]] &&
    ! printf '%s\0' "${tidy_files[@]}" |
    xargs -0 -I{} -P "$jobs" bash -c "$tidy_one" "$clang_tidy" "$build_dir" {} "$root/tests/.clang-tidy"; then
    failed+=("clang-tidy")
  fi
fi

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "lint.sh: FAILED: ${failed[*]}"
  exit 1
fi
echo "lint.sh: all checks passed"
