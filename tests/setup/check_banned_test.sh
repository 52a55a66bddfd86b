#!/usr/bin/env bash
# scripts/check_banned.sh must pass on this repository and fail, naming the file and line and saying to use
# RE2, on a tree whose sources use std::regex; a mention in a comment and a use under tests/ pass.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"$root/scripts/check_banned.sh"

tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/src/extra" "$tree/include/kopt" "$tree/tests"
printf '// std::regex recursed: RE2 replaced it\nint f();\n' >"$tree/include/kopt/ok.hpp"
printf '#include <regex>\n' >"$tree/tests/trusted_test.cpp"
if ! output="$("$root/scripts/check_banned.sh" "$tree" 2>&1)"; then
  echo "FAIL: a comment or a test was reported: $output"; exit 1
fi
printf '#include <string>\n#include <regex>\nbool g(std::string const& s) {\n  return std::regex_search(s, std::regex("a+"));\n}\n' \
  >"$tree/src/extra/uses.cpp"
if output="$("$root/scripts/check_banned.sh" "$tree" 2>&1)"; then
  echo "FAIL: std::regex under src/ passed: $output"; exit 1
fi
grep -q 'src/extra/uses.cpp:2: #include <regex>' <<<"$output" ||
  { echo "FAIL: the message does not name the include's file and line: $output"; exit 1; }
grep -q 'src/extra/uses.cpp:4: ' <<<"$output" || { echo "FAIL: the use on line 4 is not named: $output"; exit 1; }
grep -q 'use RE2' <<<"$output" || { echo "FAIL: the message does not say to use RE2: $output"; exit 1; }
if grep -q 'ok.hpp\|trusted_test' <<<"$output"; then echo "FAIL: a comment or a test was reported: $output"; exit 1; fi
rm "$tree/src/extra/uses.cpp"
mkdir -p "$tree/tests/extra"
printf 'namespace kopt {\nnamespace extra_test {\n}  // namespace extra_test\n}  // namespace kopt\n' \
  >"$tree/tests/extra/named_test.cpp"
printf '// namespace { in a comment\nnamespace kopt {\nnamespace {\n}  // namespace\n}  // namespace kopt\n' \
  >"$tree/tests/extra/anonymous_test.cpp"
if output="$("$root/scripts/check_banned.sh" "$tree" 2>&1)"; then
  echo "FAIL: an anonymous namespace in a test file passed: $output"; exit 1
fi
grep -q 'tests/extra/anonymous_test.cpp:3: namespace {' <<<"$output" ||
  { echo "FAIL: the anonymous namespace's file and line are not named: $output"; exit 1; }
if grep -q 'named_test\|anonymous_test.cpp:1' <<<"$output"; then
  echo "FAIL: a named namespace or a comment was reported: $output"; exit 1
fi
echo "2 passed, 0 failed"
