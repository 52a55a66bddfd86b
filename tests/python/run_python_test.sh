#!/usr/bin/env bash
# Runs one test module of the PyTorch bridge's Python tests (python/tests/test_*.py) for ctest:
#   run_python_test.sh REPO_ROOT MODULE        e.g. run_python_test.sh /src/kopt tests.test_problem
# with the Python that kopt uses for its reference process: $KOPT_PYTHON, else REPO_ROOT/.venv/bin/python3,
# else python3 on PATH. When that Python cannot import torch, it prints why and exits 77, which ctest
# reports as Skipped (SKIP_RETURN_CODE), never as Passed.
set -euo pipefail
root="$1"
module="$2"
skip=77
python="${KOPT_PYTHON:-}"
if [[ -z "$python" ]]; then
  python="$root/.venv/bin/python3"
  [[ -x "$python" ]] || python="$(command -v python3 || true)"
fi
has_torch='import importlib.util, sys; sys.exit(importlib.util.find_spec("torch") is None)'
if [[ -z "$python" ]] || ! "$python" -c "$has_torch" 2>/dev/null; then
  echo "SKIPPED: no torch venv (scripts/setup.sh installs it); looked for torch in ${python:-python3}"
  exit $skip
fi
cd "$root/python"
# No __pycache__ folders in the source tree.
export PYTHONDONTWRITEBYTECODE=1
exec "$python" -m unittest -v "$module"
