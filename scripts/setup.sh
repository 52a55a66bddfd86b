#!/usr/bin/env bash
# Installs kopt's build dependencies (Debian/Ubuntu packages, when run as root and any is missing),
# configures and builds kopt into build/. Needs the CUDA toolkit (nvcc, NVRTC) at /usr/local/cuda or
# $CUDA_HOME. Safe to run again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
packages=(cmake ninja-build g++ nlohmann-json3-dev libfmt-dev libcli11-dev libtomlplusplus-dev libgtest-dev libsqlite3-dev libssl-dev libdtl-dev libpng-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "kopt setup: installing ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "kopt setup: please install: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
command -v nvcc >/dev/null || { echo "kopt setup: nvcc not found; install the CUDA toolkit or set CUDA_HOME" >&2; exit 1; }
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo "kopt setup: built build/bin/kopt and build/bin/kopt-worker"
