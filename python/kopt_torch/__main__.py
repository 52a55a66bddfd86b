"""Command line of kopt_torch: ``python -m kopt_torch {import,serve,abi,export} ...``.

- ``import PROBLEM -o DIR [--precision fp32|bf16] [--name N] [--family F] [--force]``: write a task
  folder and print the import summary (JSON) on stdout;
- ``serve TASK_DIR [--device cuda|cpu]``: the reference process (JSON lines on stdin/stdout);
- ``abi PROBLEM [--precision]``: print the ABI record at the problem's constants (debugging);
- ``export ...``: hand a result back to PyTorch (kopt_torch.export).

A user mistake is one line on stderr, ``kopt_torch: <message>``, and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Sequence

from .errors import ProblemError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kopt_torch",
        description="PyTorch problems (KernelBench format) as kopt tasks: import, reference process, ABI, export.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    imp = sub.add_parser("import", help="write a kopt task folder for a PyTorch problem",
                         description="Write TASK_DIR/task.toml, problem.py (a byte-for-byte copy) and "
                                     "torch_abi.json for a KernelBench-format problem; print a JSON summary.")
    imp.add_argument("problem", metavar="PROBLEM", help="the problem file (class Model, get_inputs, get_init_inputs)")
    imp.add_argument("-o", "--output", required=True, metavar="DIR", help="task folder to write")
    imp.add_argument("--precision", choices=("fp32", "bf16"), default="fp32",
                     help="the task's precision: floating tensors are float or __nv_bfloat16 (default fp32)")
    imp.add_argument("--name", help="task name (default: <problem stem>_<precision>)")
    imp.add_argument("--family", help="strategy family written to task.toml (default: none)")
    imp.add_argument("--force", action="store_true", help="overwrite a non-empty output folder")

    srv = sub.add_parser("serve", help="run the reference process for a task folder",
                         description="Answer kopt's JSON-lines requests (hello, forward, time, bye) on "
                                     "stdin/stdout for the task folder's problem (docs/pytorch.md).")
    srv.add_argument("task_dir", metavar="TASK_DIR", help="a folder written by 'import'")
    srv.add_argument("--device", default="cuda", metavar="DEVICE",
                     help="cuda, cuda:N or cpu: where the module runs (default cuda; cpu is for tests)")

    abi = sub.add_parser("abi", help="print the ABI of a problem at its constants (debugging)",
                         description="Derive and print the kopt.torch_abi/1 record of a problem, with notes "
                                     "on stderr.")
    abi.add_argument("problem", metavar="PROBLEM")
    abi.add_argument("--precision", choices=("fp32", "bf16"), default="fp32")

    exp = sub.add_parser("export", help="hand a result back to PyTorch (see 'export --help')", add_help=False)
    exp.add_argument("args", nargs=argparse.REMAINDER)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "export":
        try:
            from . import export  # noqa: PLC0415 - another module, loaded only when asked for
        except ImportError as e:
            print(f"kopt_torch: export is not available ({e})", file=sys.stderr)
            return 2
        try:
            return int(export.main(argv[1:]) or 0)
        except ProblemError as e:
            print(f"kopt_torch: {e}", file=sys.stderr)
            return 2
    args = _parser().parse_args(argv)
    try:
        if args.command == "import":
            from .importer import import_problem, summary_json

            with contextlib.redirect_stdout(sys.stderr):  # the problem's print()s are not the summary
                summary = import_problem(args.problem, args.output, args.precision, name=args.name,
                                         family=args.family, force=args.force)
            print(summary_json(summary))
            return 0
        if args.command == "serve":
            from .serve import serve

            return serve(args.task_dir, args.device)
        if args.command == "abi":
            from .abi import derive_abi

            with contextlib.redirect_stdout(sys.stderr):
                abi = derive_abi(args.problem, args.precision)
            for n in abi.notes:
                print(f"note: {n}", file=sys.stderr)
            if abi.flops:
                print(f"note: flops per forward = {abi.flops}", file=sys.stderr)
            print(json.dumps(abi.to_json(), indent=1))
            return 0
    except ProblemError as e:
        print(f"kopt_torch: {e}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
