"""How long the PyTorch reference process takes for one trial of a large problem, outside kopt: a ReLU of
ROWS x COLS floats (1 GB in, 1 GB out by default), imported once, then `forward` requests served on the CPU
(the same code path as on the GPU but for the device), each reading the inputs file and writing the outputs
file as kopt's TorchReference does. Prints the seconds of each request and their median.

  python bench/pytorch/reference_io.py [--python-dir python] [--rows 8192] [--cols 32768] [--repeat 3]

--python-dir picks the kopt_torch to measure (another checkout's python/ for a before/after pair).
docs/pytorch.md ("Status") has the figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

PROBLEM = """import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


rows = {rows}
cols = {cols}


def get_inputs():
    return [torch.rand(rows, cols)]


def get_init_inputs():
    return []
"""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--python-dir", default=str(Path(__file__).resolve().parents[2] / "python"))
    p.add_argument("--rows", type=int, default=8192)
    p.add_argument("--cols", type=int, default=32768)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    sys.path.insert(0, args.python_dir)
    import torch

    from kopt_torch.importer import import_problem
    from kopt_torch.serve import Server

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "big_relu.py").write_text(PROBLEM.format(rows=args.rows, cols=args.cols))
        import_problem(work / "big_relu.py", work / "task", "fp32")
        server = Server(work / "task", "cpu")
        torch.randn(args.rows, args.cols).numpy().tofile(work / "in.bin")
        request = {"id": 1, "op": "forward", "size": {"rows": args.rows, "cols": args.cols},
                   "inputs": str(work / "in.bin"), "outputs": str(work / "out.bin")}
        seconds = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            reply = server.handle(request)
            seconds.append(time.perf_counter() - start)
            if not reply.get("ok"):
                print(reply, file=sys.stderr)
                return 1
    each = " ".join(f"{s:.2f}" for s in seconds)
    print(f"{args.python_dir}: {each} s; median {statistics.median(seconds):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
