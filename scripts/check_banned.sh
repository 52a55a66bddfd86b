#!/usr/bin/env bash
# Fails when kopt's own code uses what it must not, naming each file and line (run by scripts/lint.sh, so by
# CI; and by the ctest Lint.NoBannedConstructs):
#   std::regex and #include <regex> under src/, include/, fuzz/ and bench/. libstdc++'s std::regex matches
#   by recursing once per character of a repetition, so a long outside text (a candidate source, a task or
#   strategy field, a compiler or sanitizer log) overflows the stack: `kopt optimize --from` died with
#   SIGSEGV on a source with 400,000 characters between __global__ and the kernel's name (issue #23;
#   docs/fuzzing.md). Use RE2 (<re2/re2.h>, the kopt::re2 target): linear time, no recursion
#   (docs/building.md, "RE2"). tests/ may use std::regex on its own trusted text.
#   an anonymous namespace in a test file (tests/**/*_test.cpp): the test executables are unity builds, so
#   each file's body lives in a namespace named after the file (docs/style.md, "Layout"), where two files'
#   helpers of one name can neither collide nor quietly overload each other.
# Comments (from // to the end of the line) are not checked.
#   scripts/check_banned.sh [TREE]   (default: this repository)
set -euo pipefail
root="$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)"
cd "$root"

# std::regex (and std::regex_search, ...), std::wregex, std::basic_regex, std::smatch, std::match_results,
# std::sregex_iterator, std::ssub_match, ...; and the header.
banned='std::(w?regex|basic_regex|w?[sc]match|match_results|w?[sc]regex_|w?[sc]?sub_match)|#[[:space:]]*include[[:space:]]*<regex>'
found=0
checked=0
while IFS= read -r -d '' file; do
  checked=$((checked + 1))
  # Code only: each line without its // comment, so that line numbers stay those of the file.
  while IFS= read -r hit; do
    echo "check_banned: ${file#./}:${hit%%:*}: ${hit#*:}" >&2
    found=$((found + 1))
  done < <(sed 's#//.*$##' "$file" | grep -nE "$banned" || true)
done < <(find src include fuzz bench -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cc' \
  -o -name '*.cu' -o -name '*.cuh' \) -print0 2>/dev/null | sort -z)
if [[ $found -gt 0 ]]; then
  echo "check_banned: std::regex on $found line(s) of kopt's code: use RE2 (#include <re2/re2.h>, link" \
       "kopt::re2; RE2::FullMatch/PartialMatch/GlobalReplace/FindAndConsume): std::regex recurses once per" \
       "character and overflows the stack on long outside text (docs/fuzzing.md, docs/building.md \"RE2\")" >&2
  exit 1
fi
echo "check_banned: no std::regex in the $checked files of src/, include/, fuzz/ and bench/"

anonymous=0
while IFS= read -r -d '' file; do
  while IFS= read -r hit; do
    echo "check_banned: ${file#./}:${hit%%:*}: ${hit#*:}" >&2
    anonymous=$((anonymous + 1))
  done < <(sed 's#//.*$##' "$file" | grep -nE '^[[:space:]]*namespace[[:space:]]*\{' || true)
done < <(find tests -type f -name '*_test.cpp' -print0 2>/dev/null | sort -z)
if [[ $anonymous -gt 0 ]]; then
  echo "check_banned: $anonymous anonymous namespace(s) in test files: name the namespace after the file" \
       "(namespace binding_test { in binding_test.cpp): the tests are unity builds (docs/style.md, \"Layout\")" >&2
  exit 1
fi
echo "check_banned: every test file's namespace is named"
