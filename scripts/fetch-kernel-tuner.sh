#!/usr/bin/env bash
# Downloads Kernel Tuner's wheel and the wheels of the dependencies it imports, for CPython 3.12 on
# x86-64 Linux (the GPU machine), into .carry/wheels/ (git-ignored; `run` carries it to the GPU machine,
# which has no network). bench/kernel_tuner/compare.py installs them there with
#   python3 -m pip install --no-index --find-links .carry/wheels --no-deps --target DIR <wheels>
# never touching the system Python.
#
# Left out on purpose (carry limit 64 MiB): numpy and cupy (on the GPU machine already); pandas and
# scikit-learn (Kernel Tuner imports pandas only to export results and scikit-learn only inside a
# try for its Bayesian strategy; brute force needs neither). scipy (~36 MB) is needed: Kernel Tuner
# imports it at start-up. Pass --no-scipy when the target has scipy.
# Usage: scripts/fetch-kernel-tuner.sh [--dest DIR] [--no-scipy]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/.carry/wheels"
with_scipy=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dest) dest="$2"; shift 2 ;;
    --no-scipy) with_scipy=0; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "fetch-kernel-tuner.sh: unknown argument '$1'; expected --dest DIR or --no-scipy" >&2; exit 2 ;;
  esac
done

# Pinned, so that the benchmark is reproducible; the versions pip resolved for kernel_tuner 1.3.3.
packages=(
  kernel_tuner==1.3.3
  python-constraint2==2.9.0
  jsonschema==4.26.0
  jsonschema-specifications==2025.9.1
  referencing==0.37.0
  rpds-py==2026.9.1
  attrs==26.1.0
  typing-extensions==4.16.0
  xmltodict==1.0.4
  packaging==26.4
)
if [[ "$with_scipy" == 1 ]]; then packages+=(scipy==1.16.3); fi

mkdir -p "$dest"
python3 -m pip download --quiet --no-deps --only-binary=:all: \
  --python-version 3.12 --implementation cp --abi cp312 --abi abi3 --abi none \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform any \
  -d "$dest" "${packages[@]}"
ls -l "$dest"
du -sh "$dest"
