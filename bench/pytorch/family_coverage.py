"""Which PyTorch problems the built-in proposer can work on: for each KernelBench-format problem file, the family
infer_family reads off its module, else the chain infer_chain splits it into, else why neither (on the meta
device: nothing is allocated or run). Prints a line per problem and the counts; the figures of docs/pytorch.md
("Chains of families") come from it, run over a copy of KernelBench's levels (never committed).

  python bench/pytorch/family_coverage.py [--python-dir python] PROBLEM.py ...
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python-dir", default=str(Path(__file__).resolve().parents[2] / "python"),
                        help="the kopt_torch to use (default: this checkout's python/)")
    parser.add_argument("problems", nargs="+", help="KernelBench-format problem files")
    args = parser.parse_args()
    sys.path.insert(0, args.python_dir)
    import torch
    from kopt_torch.chain import ChainGuess, chain_or_reason
    from kopt_torch.family import infer_family

    counts: collections.Counter[str] = collections.Counter()
    stage_families: collections.Counter[str] = collections.Counter()
    reasons: collections.Counter[str] = collections.Counter()
    for path in args.problems:
        name = Path(path).name
        spec = importlib.util.spec_from_file_location("problem", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            with torch.device("meta"):
                model = module.Model(*module.get_init_inputs())
                inputs = module.get_inputs()
            guess = infer_family(model, inputs)
            found = None if guess is not None else chain_or_reason(model, inputs)
        except Exception as error:  # noqa: BLE001 - a problem that cannot be built on the meta device is counted
            counts["error"] += 1
            print(f"{name}: error {type(error).__name__}: {str(error)[:100]}")
            continue
        if guess is not None:
            counts["family"] += 1
            print(f"{name}: family {guess.family}")
        elif isinstance(found, ChainGuess):
            families = [s.guess.family for s in found.stages]
            counts["chain"] += 1
            stage_families.update(families)
            print(f"{name}: chain {' -> '.join(families)}")
        else:
            counts["none"] += 1
            reasons[found.split(" (")[0]] += 1
            print(f"{name}: none ({found})")
    total = len(args.problems)
    print(f"\n{total} problems: {counts['family']} with a family, {counts['chain']} with a chain, {counts['none']} with "
          f"neither, {counts['error']} not built on the meta device")
    print("stage families:", ", ".join(f"{f} {n}" for f, n in stage_families.most_common()))
    print("why neither:", "; ".join(f"{r} ({n})" for r, n in reasons.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
