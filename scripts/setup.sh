#!/usr/bin/env bash
# Sets kopt up on a Debian 12 / Ubuntu machine with the CUDA toolkit: installs the build dependencies
# (as root, only those missing), configures build/ and builds kopt's programs (kopt, kopt-worker,
# kopt-compile). Tests and benchmarks are built later, by scripts/test.sh and on demand. Also installs
# PyTorch for the PyTorch bridge (docs/pytorch.md): python/requirements.txt (torch and numpy, pinned) into
# a virtual environment at .venv, where kopt finds its Python. Safe to run again: a second run installs
# nothing and rebuilds only what changed.
#
#   scripts/setup.sh [--deps-only] [--no-torch] [--print-packages] [--build-dir DIR] [-- CMAKE_ARGS...]
#
# --deps-only       install the packages and PyTorch, and stop (CI installs through here, then adds its
#                   linters)
# --no-torch        do not install PyTorch (also: KOPT_SETUP_TORCH=0); its tests then report Skipped
# --print-packages  print the package list, one per line, and stop
# --print-table     print the table below (package=CMake lookups), for scripts/check_dependencies.sh
# --build-dir DIR   build folder (default: build)
# Needs the CUDA toolkit (nvcc, NVRTC) at /usr/local/cuda or $CUDA_HOME. Uses ccache when present.
# KOPT_VENV_DIR: where PyTorch goes (default: .venv in the repository, where kopt looks; elsewhere, point
# KOPT_PYTHON at its bin/python3).
#
# This file is the single list of kopt's build dependencies: .ci/run installs through it, and the ctest
# Setup.EveryCMakeLookupHasAPackage (scripts/check_dependencies.sh) fails when a CMake file looks for
# something that the table below does not name.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Debian package = the CMake lookups it satisfies ("-": a tool, nothing looked up by name).
dependencies=(
  "cmake=-"
  "ninja-build=-"
  "g++=find_package(Threads)"
  "pkg-config=find_package(PkgConfig)"
  "ccache=find_program(ccache)"
  "nlohmann-json3-dev=find_package(nlohmann_json)"
  "libfmt-dev=find_package(fmt)"
  "libcli11-dev=find_package(CLI11)"
  "libtomlplusplus-dev=find_path(toml++/toml.h)"
  "libgtest-dev=find_package(GTest)"
  "libsqlite3-dev=find_package(SQLite3)"
  "libssl-dev=find_package(OpenSSL)"
  "libcurl4-openssl-dev=find_package(CURL)"
  "libcpp-httplib-dev=pkg_check_modules(cpp-httplib)"
  "libseccomp-dev=pkg_check_modules(libseccomp)"
  "libdtl-dev=find_path(dtl/dtl.hpp)"
  "libpng-dev=find_package(PNG)"
  "libre2-dev=pkg_check_modules(re2)"  # linked from its static archive (docs/building.md, "RE2")
  "libhiredis-dev=pkg_check_modules(hiredis)"  # the farm's Redis client, linked from its static archive
  "redis-server=find_program(redis-server)"    # the farm's tests start one on loopback (docs/distributed.md)
  "python3=find_package(Python3)"
  "python3-venv=-"         # python3 -m venv, for PyTorch's .venv (not needed with --no-torch)
  "bash=find_program(bash)"
  "clang=-"                # the sanitizer and fuzzing build (KOPT_SANITIZE, KOPT_FUZZ; scripts/fuzz.sh)
  "libclang-rt-14-dev=-"   # its runtimes: AddressSanitizer, UndefinedBehaviorSanitizer, libFuzzer
)
# Not a Debian package here: the CUDA toolkit (find_package(CUDAToolkit)), from NVIDIA's installer.

build_dir=build
deps_only=0
torch="${KOPT_SETUP_TORCH:-1}"
venv="${KOPT_VENV_DIR:-.venv}"
cmake_args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --deps-only) deps_only=1; shift ;;
    --no-torch) torch=0; shift ;;
    --print-packages) for d in "${dependencies[@]}"; do echo "${d%%=*}"; done; exit 0 ;;
    --print-table) printf '%s\n' "${dependencies[@]}"; exit 0 ;;
    --build-dir) build_dir="$2"; shift 2 ;;
    --) shift; cmake_args=("$@"); break ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument '$1'; expected --deps-only, --no-torch, --print-packages," \
            "--build-dir DIR or -- CMAKE_ARGS" >&2
       exit 2 ;;
  esac
done

started=$SECONDS
missing=()
for d in "${dependencies[@]}"; do
  p="${d%%=*}"
  [[ $p == python3-venv && $torch == 0 ]] && continue
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  if [[ "$(id -u)" != 0 ]]; then
    echo "kopt setup: these packages are missing; install them, then run this again:" >&2
    echo "  sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "kopt setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "kopt setup: dependencies ready ($((SECONDS - started)) s)"

# PyTorch for the PyTorch bridge (docs/pytorch.md), in its own virtual environment: nothing outside it is
# installed or upgraded. Skipped when the environment already holds every pin of python/requirements.txt.
has_pins() {
  [[ -x "$venv/bin/python3" ]] && "$venv/bin/python3" - python/requirements.txt 2>/dev/null <<'PY'
"""Exit 0 when every name==version line of the requirements file is installed at that version."""
import importlib.metadata as metadata
import sys

for line in open(sys.argv[1], encoding="utf-8"):
    name, sep, version = line.split("#")[0].strip().partition("==")
    if sep and metadata.version(name).split("+")[0] != version:  # 2.11.0+cu130 is torch==2.11.0
        sys.exit(1)
PY
}
if [[ $torch == 0 ]]; then
  echo "kopt setup: PyTorch not installed (--no-torch or KOPT_SETUP_TORCH=0); the PyTorch bridge's tests" \
       "report Skipped"
elif has_pins; then
  echo "kopt setup: PyTorch ready in $venv (python/requirements.txt's pins are installed)"
else
  torch_started=$SECONDS
  pins="$(grep -oE '^[A-Za-z0-9_.-]+==[^ #]+' python/requirements.txt | tr '\n' ' ')"
  echo "kopt setup: installing PyTorch for the PyTorch bridge (docs/pytorch.md) into $venv: ${pins% }" \
       "(the CUDA 13 build: about 2.7 GB to download, 5 GB on disk; --no-torch skips it)"
  if ! python3 -m venv "$venv" ||
     ! "$venv/bin/python3" -m pip install --quiet --progress-bar off -r python/requirements.txt; then
    echo "kopt setup: installing PyTorch into $venv failed (above); run scripts/setup.sh again, or skip" \
         "PyTorch with --no-torch" >&2
    exit 1
  fi
  echo "kopt setup: PyTorch installed in $venv ($((SECONDS - torch_started)) s)"
fi
[[ $deps_only == 1 ]] && exit 0

export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
if ! command -v nvcc >/dev/null; then
  echo "kopt setup: nvcc not found; install the CUDA toolkit (13.x) or set CUDA_HOME to where it is" >&2
  exit 1
fi
build_started=$SECONDS
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cmake_args[@]}" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
echo "kopt setup: built $build_dir/bin/kopt, kopt-worker and kopt-compile in $((SECONDS - build_started)) s"
echo "kopt setup: next: $build_dir/bin/kopt doctor; tests: scripts/test.sh"
