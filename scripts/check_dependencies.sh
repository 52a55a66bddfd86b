#!/usr/bin/env bash
# Checks that every dependency the CMake files look up is installed by scripts/setup.sh, so that the
# README's first command works on a fresh machine (and CI, which installs through setup.sh, proves it).
# Lookups read from CMakeLists.txt and *.cmake files: find_package(X), find_dependency(X),
# pkg_check_modules(... module), find_path(... header), find_program(... name). The table in setup.sh
# maps each Debian package to the lookups it satisfies. Exit 0 when each lookup is named there, 1 with
# the list of lookups that are not (and the file that makes each).
#   scripts/check_dependencies.sh [TREE]   (default: this repository; TREE must hold scripts/setup.sh)
set -euo pipefail
root="$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
cd "$root"

# Lookups that no Debian package provides here, or that are kopt's own.
not_packages='^(find_package\((CUDAToolkit|kopt)\))$'

table="$(scripts/setup.sh --print-table)"
mapfile -t files < <(find . \( -path './.*' -o -path './build*' \) -prune -o -type f \
  \( -name CMakeLists.txt -o -name '*.cmake' -o -name '*.cmake.in' \) -print | sed 's|^\./||' | sort)
missing=0
checked=0
while IFS=$'\t' read -r file lookup; do
  [[ -z "$lookup" ]] && continue
  checked=$((checked + 1))
  [[ "$lookup" =~ $not_packages ]] && continue
  if ! grep -qF "$lookup" <<<"$table"; then
    echo "check_dependencies: $file: $lookup has no package in scripts/setup.sh's table" >&2
    missing=$((missing + 1))
  fi
done < <(
  for f in "${files[@]}"; do
    # Keep code, drop comments; join a call's lines so that its arguments are on one line.
    sed 's/#.*$//' "$f" | tr '\n' ' ' |
      { grep -oE '(find_package|find_dependency|pkg_check_modules|find_path|find_program)\([^)]*\)' || true; } |
      while read -r call; do
        kind="${call%%(*}"
        read -r -a args <<<"$(sed -E 's/^[a-z_]+\(//; s/\)$//' <<<"$call")"
        case "$kind" in
          find_package|find_dependency) name="${args[0]}"; kind=find_package ;;
          pkg_check_modules)  # pkg_check_modules(PREFIX [REQUIRED|QUIET|IMPORTED_TARGET|GLOBAL]... module)
            name=""
            for a in "${args[@]:1}"; do
              [[ "$a" =~ ^(REQUIRED|QUIET|IMPORTED_TARGET|GLOBAL|NO_CMAKE_PATH|NO_CMAKE_ENVIRONMENT_PATH)$ ]] ||
                name="$a"
            done ;;
          find_path|find_program) name="${args[1]}" ;;  # find_path(VAR name ...)
        esac
        [[ "$name" == *'${'* || -z "$name" ]] && continue  # computed at configure time
        printf '%s\t%s(%s)\n' "$f" "$kind" "$name"
      done
  done
)
if [[ $missing -gt 0 ]]; then
  echo "check_dependencies: $missing lookup(s) missing from scripts/setup.sh: add the Debian package that" \
       "provides each to its table" >&2
  exit 1
fi
echo "check_dependencies: all $checked CMake lookups are covered by scripts/setup.sh"
