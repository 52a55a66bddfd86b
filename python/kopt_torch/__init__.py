"""kopt_torch: PyTorch problems in the KernelBench format as kopt tasks.

Modules:

- `problem`: load a problem file with its module-level size constants overridden;
- `abi`: derive the candidate's ABI (docs/pytorch.md) from a problem;
- `family`: the library family of a module, read off its graph; `chain`: the chain of families of a module that no
  one family serves;
- `importer`: write a task folder (task.toml, problem.py, torch_abi.json);
- `serve`: the reference process (JSON lines on stdin/stdout), with `timing` for the baselines;
- `expr`: kopt's integer expressions (the subset the importer writes), evaluated as kopt does.

Command line: ``python -m kopt_torch {import,serve,abi,export} ...``.
"""

from .errors import ProblemError

__all__ = ["ProblemError"]
__version__ = "1"
