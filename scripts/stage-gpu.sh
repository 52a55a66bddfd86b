#!/usr/bin/env bash
# Copies the binaries a GPU host needs into .carry/bin (stripped), for a machine without this
# toolchain's libraries (toml++ is header-only and compiled in; fmt, NVRTC and cudart are there).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .carry/bin
cmake --build build --target kopt kopt-worker kopt-compile kopt_gpu_tests kopt-bench-eval kopt-bench-compile
for f in build/bin/kopt build/bin/kopt-worker build/bin/kopt-compile build/bin/kopt-bench-eval build/bin/kopt-bench-compile build/tests/kopt_gpu_tests; do
  [ -x "$f" ] && cp "$f" .carry/bin/
done
strip .carry/bin/* 2>/dev/null || true
du -sh .carry/bin
