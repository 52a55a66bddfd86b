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
# The farm's GPU tests start a redis-server on loopback; the GPU machine has none (../shared/notes/
# gpu-machine.md), so Debian's binary goes along with the two libraries Ubuntu lacks there. Its name
# decides its role (the file is redis-check-rdb, the server when called redis-server).
if command -v redis-server >/dev/null; then
  mkdir -p .carry/redis/bin .carry/redis/lib
  cp "$(readlink -f "$(command -v redis-server)")" .carry/redis/bin/redis-server
  for lib in liblzf.so.1 libjemalloc.so.2; do
    path=$(ldd "$(readlink -f "$(command -v redis-server)")" | awk -v l="$lib" '$1 == l {print $3}')
    [ -n "$path" ] && cp -L "$path" .carry/redis/lib/
  done
fi
du -sh .carry/bin .carry/redis 2>/dev/null || true
