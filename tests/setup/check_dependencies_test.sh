#!/usr/bin/env bash
# scripts/check_dependencies.sh must pass on this repository and fail, naming the file and the lookup,
# on a tree whose CMake file looks for a package that scripts/setup.sh does not install.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"$root/scripts/check_dependencies.sh"

tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/scripts" "$tree/src/extra"
cp "$root/scripts/setup.sh" "$tree/scripts/"
printf 'find_package(fmt 9 REQUIRED)\n# find_package(OnlyInAComment)\nfind_package(NotInstalledBySetup\n  REQUIRED)\n' \
  >"$tree/src/extra/CMakeLists.txt"
if output="$("$root/scripts/check_dependencies.sh" "$tree" 2>&1)"; then
  echo "FAIL: a lookup with no package passed: $output"; exit 1
fi
grep -q 'src/extra/CMakeLists.txt: find_package(NotInstalledBySetup)' <<<"$output" ||
  { echo "FAIL: the message does not name the file and lookup: $output"; exit 1; }
if grep -q OnlyInAComment <<<"$output"; then echo "FAIL: a commented-out lookup was checked"; exit 1; fi
if grep -q 'find_package(fmt)' <<<"$output"; then echo "FAIL: fmt is in setup.sh but was reported"; exit 1; fi
echo "1 passed, 0 failed"
